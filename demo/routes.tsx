/** @jsxRuntime automatic @jsxImportSource preact */
import { renderToString } from 'preact-render-to-string';
import type { Request } from '../src/http/request.js';
import { Response } from '../src/http/response.js';
import type { RouteDefinition } from '../src/routing/route.js';

/**
 * The demo's route table: the reference application's routes, same names, paths, methods and
 * requirements, so that the two can be compared request by request, plus a JSON status route.
 * Routes that name `limiters` opt in to rate limiting (the limiters' settings live in the config).
 */
export const demoRoutes: RouteDefinition[] = [
  { name: 'home', path: '/', methods: ['GET'], controller: home },
  { name: 'login', path: '/login', methods: ['POST'], controller: login, options: { limiters: ['sensitive'], limiterAccount: 'username' } },
  { name: 'blog_index', path: '/blog/', controller: () => new Response('blog index\n') },
  { name: 'about', path: '/about', controller: () => new Response('about\n') },
  {
    name: 'item_edit',
    path: '/items/{id}',
    methods: ['PUT', 'PATCH', 'DELETE'],
    requirements: { id: '\\d+' },
    controller: (_request, params) => new Response(`item ${(params as Record<string, string>).id}\n`),
  },
  { name: 'boom', path: '/boom', controller: boom },
  { name: 'limited', path: '/limited', controller: () => new Response('limited ok\n'), options: { limiters: ['sensitive'] } },
  // The reference's bare `throw new TooManyRequestsHttpException()`: no rate headers, accepted or refused.
  { name: 'limited_bare', path: '/limited-bare', controller: limitedBare, options: { limiters: ['sensitive'], limiterHeaders: false } },
  {
    name: 'api_limited',
    path: '/api/limited',
    controller: apiLimited,
    options: { limiters: ['default'], limiterMessage: 'API rate limit exceeded' },
  },
  { name: 'api_status', path: '/api/status', methods: ['GET'], controller: apiStatus },
];

function home(): Response {
  const page = renderToString(
    <html lang="en">
      <head>
        <meta charset="UTF-8" />
        <title>keel demo</title>
      </head>
      <body>
        <h1>keel demo</h1>
        <p>
          Try <a href="/robots.txt">/robots.txt</a> (404), <a href="/login">GET /login</a> (405),{' '}
          <a href="/blog">/blog</a> (301), <a href="/boom">/boom</a> (500), and the profiler at{' '}
          <a href="/_profiler/latest">/_profiler/latest</a>.
        </p>
      </body>
    </html>,
  );
  // No Content-Type: the response listener adds `text/html; charset=UTF-8`, as Symfony's does.
  return new Response(`<!DOCTYPE html>\n${page}\n`);
}

async function login(request: Request): Promise<Response> {
  await request.body();
  return new Response('login ok\n');
}

/** The reference's demo throws PHP's RuntimeException: an application error class of the same name. */
class RuntimeException extends Error {}

/** Raises an error whose message is full of characters that must be escaped wherever it is shown. */
function boom(): never {
  throw new RuntimeException('Boom <b>"quoted" & \'single\'</b>');
}

function limitedBare(): Response {
  return new Response('limited-bare ok\n');
}

/**
 * The reference's JSON answer: `{"ok":true,"remaining":<tokens left>}`; `null` when the storage could not
 * be reached and the limiter failed open, with no quota known.
 */
function apiLimited(request: Request): Response {
  const limit = request.attributes.rateLimits?.find((record) => record.limiter === 'default')?.rateLimit;
  return Response.json({ ok: true, remaining: limit === undefined || limit.degraded ? null : limit.remaining });
}

function apiStatus(request: Request): Response {
  return Response.json({ status: 'ok', clientIp: request.clientIp, scheme: request.scheme });
}

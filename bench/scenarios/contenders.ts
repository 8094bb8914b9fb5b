import type { ServerSpec } from '../lib/server-process.js';

/** A server of the comparison. keel runs twice: in dev with everything on, and in prod. */
export interface Contender {
  id: string;
  label: string;
  spec: ServerSpec;
}

export const CONTENDERS: Contender[] = [
  { id: 'keel-dev', label: 'keel dev (profiler, toolbar, debug page, log file)', spec: { file: 'keel', env: { APP_ENV: 'dev' } } },
  { id: 'keel-prod', label: 'keel prod', spec: { file: 'keel', env: { APP_ENV: 'prod' } } },
  { id: 'node-http', label: 'node:http + switch (ceiling)', spec: { file: 'node-http' } },
  { id: 'fastify', label: 'Fastify', spec: { file: 'fastify' } },
  { id: 'hono', label: 'Hono on @hono/node-server', spec: { file: 'hono' } },
  { id: 'express', label: 'Express 5', spec: { file: 'express' } },
  { id: 'koa', label: 'Koa + @koa/router', spec: { file: 'koa' } },
];

/** An HTTP scenario: one request replayed against every contender. */
export interface HttpScenario {
  id: 'seed-404' | 'json';
  label: string;
  path: string;
  expectStatus: number;
}

export const HTTP_SCENARIOS: HttpScenario[] = [
  { id: 'seed-404', label: 'seed request: GET /robots.txt → 404 page', path: '/robots.txt', expectStatus: 404 },
  { id: 'json', label: 'matched JSON route: GET /api/users/42', path: '/api/users/42', expectStatus: 200 },
];

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as connectHttp2 } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { Response } from '../../src/http/response.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { startNginxFor, type RunningNginx, type SiteParameters } from '../helpers/nginx.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';
import { httpsGet, type HttpsAnswer } from './https-client.js';

// docs/deploy.md's nginx configuration and keel settings, run as written: only the port keel listens on,
// the address nginx listens on and the certificate's files are replaced. nginx reaches keel from
// 127.0.0.1 (no proxy_bind, as documented), the client comes from CLIENT and forges X-Forwarded-For.
const ROOT = join(import.meta.dirname, '..', '..');
const DEPLOY = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
const SERVER_NAME = 'app.example.com';
const CLIENT = '127.0.0.3';
const FORGED = '203.0.113.7';
const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'X-Accel-Buffering': 'no' };

function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((found) => found[1]!);
}

/** `replace`, failing when the docs no longer hold the text: a changed snippet must change this test too. */
function replaceIn(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `the documented nginx configuration holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

function keelEnv(sh: string): Record<string, string> {
  return Object.fromEntries(sh.trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
}

const [SITE, PREFIX_LOCATIONS] = blocks(DEPLOY, 'nginx') as [string, string];
const [KEEL_ENV, PREFIX_ENV] = blocks(DEPLOY, 'sh').map(keelEnv) as [Record<string, string>, Record<string, string>];

/** The documented server block on `port`, with HTTP/2 offered too, forwarding to keel on `keelPort`. */
function runnable(site: string, keelPort: number, { port, certPath, keyPath }: SiteParameters): string {
  let config = replaceIn(site, 'server 127.0.0.1:8000;', `server 127.0.0.1:${keelPort};`);
  config = replaceIn(config, 'listen 443 ssl;', `listen 127.0.0.1:${port} ssl http2;`);
  config = replaceIn(config, '/etc/ssl/app.example.com.pem', certPath);
  return replaceIn(config, '/etc/ssl/app.example.com.key', keyPath);
}

/** The server block with its `location /` replaced by the prefix section's two locations. */
function withPrefixLocations(site: string): string {
  const start = site.indexOf('    location / {');
  const end = site.lastIndexOf('    }\n}');
  assert.ok(start > 0 && end > start, 'the server block has one location /');
  const locations = PREFIX_LOCATIONS.trimEnd().split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
  return `${site.slice(0, start)}${locations}\n${site.slice(end + '    }\n'.length)}`;
}

// The second event waits for the test to have received the first: held back by nginx, it never arrives.
let releaseSecondEvent: () => void = () => {};
const secondEventReleased = new Promise<void>((resolve) => (releaseSecondEvent = resolve));
async function* events(): AsyncGenerator<string> {
  yield 'data: 0\n\n';
  await secondEventReleased;
  yield 'data: 1\n\n';
}

const ROUTES: RouteDefinition[] = [
  { name: 'events', path: '/events', controller: () => new Response(events(), 200, SSE_HEADERS) },
  { name: 'upload', path: '/upload', methods: ['POST'], controller: async (request) => Response.json({ size: (await request.body()).length }) },
];

interface Stack {
  demo: RunningDemo;
  nginx: RunningNginx;
  base: string;
  get(path: string, options?: { method?: string; headers?: Record<string, string>; body?: Buffer }): Promise<HttpsAnswer>;
  close(): Promise<void>;
}

async function startStack(env: Record<string, string>, site: string): Promise<Stack> {
  const demo = await startDemo(env, ROUTES);
  const nginx = await startNginxFor(demo, (upstreamPort) => ({ serverName: SERVER_NAME, site: (parameters: SiteParameters) => runnable(site, upstreamPort, parameters) }));
  return {
    demo,
    nginx,
    base: `https://${SERVER_NAME}:${nginx.port}`,
    get: (path, { method, headers = {}, body } = {}) =>
      httpsGet({ port: nginx.port, path, method, body, ca: nginx.certificate, serverName: SERVER_NAME, localAddress: CLIENT, headers: { 'x-forwarded-for': FORGED, ...headers } }),
    async close() {
      await nginx.close();
      await demo.close();
    },
  };
}

/** Status, headers and the first chunk of an HTTP/1.1 response through nginx; fails if none comes in 5 s. */
function firstChunk(stack: Stack, path: string): Promise<{ status: number; headers: Record<string, unknown>; chunk: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port: stack.nginx.port, path, ca: stack.nginx.certificate, servername: SERVER_NAME, localAddress: CLIENT, agent: false, headers: { host: `${SERVER_NAME}:${stack.nginx.port}` } },
      (res) => {
        res.once('data', (chunk: Buffer) => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, chunk: chunk.toString('utf8') });
          res.destroy();
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no part of ${path} arrived within 5 s: nginx held it back`)), 5_000);
    req.on('error', reject);
    req.end();
  });
}

/** One HTTP/2 request through nginx: nginx turns `:authority` into the Host it sends keel. */
function http2Get(stack: Stack, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const { port, certificate: ca } = stack.nginx;
    const session = connectHttp2(stack.base, {
      createConnection: () => connectTls({ socket: connectTcp({ host: '127.0.0.1', port, localAddress: CLIENT }), ca, servername: SERVER_NAME, ALPNProtocols: ['h2'] }),
    });
    session.on('error', reject);
    const req = session.request({ ':path': path, 'x-forwarded-for': FORGED });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('response', (headers) => req.on('end', () => {
      session.close();
      resolve({ status: Number(headers[':status']), headers, body });
    }));
    req.on('error', reject);
    req.end();
  });
}

describe('the documented nginx configuration', () => {
  it('closes idle upstream connections before keel does, and lets keel decide on a body too large', () => {
    const defaults = loadConfig({ cwd: ROOT, env: { APP_ENV: 'prod' } });
    const keepAlive = /keepalive_timeout (\d+)s;/.exec(SITE);
    assert.ok(keepAlive, 'the upstream block sets keepalive_timeout');
    assert.ok(Number(keepAlive[1]) * 1000 < (defaults.server?.keepAliveTimeout ?? 5_000), 'nginx closes first');
    const bodySize = /client_max_body_size (\d+)m;/.exec(SITE);
    assert.ok(bodySize, 'the server block sets client_max_body_size');
    assert.ok(Number(bodySize[1]) * 1_048_576 > defaults.bodyLimit, 'keel refuses first');
    assert.equal(blocks(readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8'), 'nginx')[0], SITE, 'the deployment guide quotes the same block');
    assert.ok(DEPLOY.includes(`{ 'Content-Type': 'text/event-stream', 'X-Accel-Buffering': 'no' }`), 'the reference shows the headers tested here');
  });
});

describe('behind nginx configured as docs/deploy.md says', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack(KEEL_ENV, SITE);
  });
  after(async () => {
    releaseSecondEvent();
    await stack?.close();
  });

  it('redirects and links on https with the public host and port, and counts the client nginx saw', async () => {
    const blog = await stack.get('/blog');
    assert.equal(blog.status, 301, stack.nginx.errorLog());
    assert.equal(blog.headers.location, `${stack.base}/blog/`);
    assert.match(String(blog.headers['x-debug-token-link']), new RegExp(`^${stack.base}/_profiler/[0-9a-f]{6}$`));
    const status = JSON.parse((await stack.get('/api/status')).body) as unknown;
    assert.deepEqual(status, { status: 'ok', clientIp: CLIENT, scheme: 'https' });
  });

  it('answers an HTTP/2 client the same, its :authority as the host', async () => {
    const blog = await http2Get(stack, '/blog');
    assert.equal(blog.status, 301);
    assert.equal(blog.headers.location, `${stack.base}/blog/`);
    assert.deepEqual(JSON.parse((await http2Get(stack, '/api/status')).body), { status: 'ok', clientIp: CLIENT, scheme: 'https' });
  });

  it('passes a server-sent event on as it is written, without the X-Accel-Buffering header', async () => {
    const first = await firstChunk(stack, '/events');
    releaseSecondEvent();
    assert.equal(first.status, 200);
    assert.equal(first.chunk, 'data: 0\n\n');
    assert.equal(first.headers['x-accel-buffering'], undefined);
  });

  it('answers a body past BODY_LIMIT with keel\'s 413 in the format asked for, not nginx\'s page', async () => {
    const upload = await stack.get('/upload', { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/octet-stream' }, body: Buffer.alloc(1_048_577) });
    assert.equal(upload.status, 413);
    assert.match(String(upload.headers['content-type']), /json/);
    assert.equal((JSON.parse(upload.body) as { status: number }).status, 413);
    const fits = await stack.get('/upload', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(1_048_576) });
    assert.deepEqual(JSON.parse(fits.body), { size: 1_048_576 });
  });
});

describe('behind nginx mounting keel under /app as docs/deploy.md says', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ ...KEEL_ENV, ...PREFIX_ENV }, withPrefixLocations(SITE));
  });
  after(() => stack?.close());

  it('writes the prefix into redirects and profiler links', async () => {
    const blog = await stack.get('/app/blog');
    assert.equal(blog.status, 301, stack.nginx.errorLog());
    assert.equal(blog.headers.location, `${stack.base}/app/blog/`);
    assert.match(String(blog.headers['x-debug-token-link']), new RegExp(`^${stack.base}/app/_profiler/[0-9a-f]{6}$`));
    assert.equal((await stack.get('/app/blog/')).body, 'blog index\n');
  });

  it('does not let a client choose the prefix outside /app', async () => {
    const blog = await stack.get('/blog', { headers: { 'x-forwarded-prefix': '/evil' } });
    assert.equal(blog.headers.location, `${stack.base}/blog/`);
    const mounted = await stack.get('/app/blog', { headers: { 'x-forwarded-prefix': '/evil' } });
    assert.equal(mounted.headers.location, `${stack.base}/app/blog/`);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNginxFor, type RunningNginx } from '../helpers/nginx.js';
import { SEED_HEADERS } from '../helpers/seed-request.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';
import { httpsGet, type HttpsAnswer } from './https-client.js';

// Three loopback addresses so that keel can tell the parties apart: the client connects to nginx from
// CLIENT, nginx connects to keel from NGINX (proxy_bind). keel trusts NGINX only, so the client address
// it reports must be the one nginx saw ($remote_addr, the right-most X-Forwarded-For entry), never
// nginx's own, and never what the client wrote into X-Forwarded-For itself.
const CLIENT = '127.0.0.3';
const NGINX = '127.0.0.2';
const FORGED = '203.0.113.7';
const TOKEN = /^[0-9a-f]{6}$/;

// What a crawler sends to the proxy in the reference scenario: the seed's own request headers, without the
// ones the proxy adds. The client also forges an X-Forwarded-For, which nginx extends rather than replaces.
const CLIENT_HEADERS: Record<string, string> = {
  ...Object.fromEntries(SEED_HEADERS.filter(([name]) => ['accept', 'accept-encoding', 'user-agent'].includes(name))),
  'accept-encoding': 'identity',
  'x-forwarded-for': FORGED,
};

interface Stack {
  demo: RunningDemo;
  nginx: RunningNginx;
  get(path: string, headers?: Record<string, string>): Promise<HttpsAnswer>;
  close(): Promise<void>;
}

async function startStack(trustedProxies: string, forwardedPort: 'client' | number): Promise<Stack> {
  const demo = await startDemo({ TRUSTED_PROXIES: trustedProxies });
  const nginx = await startNginxFor(demo, () => ({ forwardedPort, bindAddress: NGINX }));
  return {
    demo,
    nginx,
    get: (path, headers = {}) =>
      httpsGet({ port: nginx.port, path, ca: nginx.certificate, serverName: nginx.serverName, localAddress: CLIENT, headers: { ...CLIENT_HEADERS, ...headers } }),
    async close() {
      await nginx.close();
      await demo.close();
    },
  };
}

describe('behind nginx terminating TLS, with nginx as the only trusted proxy', () => {
  let stack: Stack;
  let base: string;
  let seed: HttpsAnswer;
  before(async () => {
    stack = await startStack(NGINX, 'client');
    base = `https://app.example.test:${stack.nginx.port}`;
    seed = await stack.get('/robots.txt');
  });
  after(() => stack?.close());

  it('answers the seed request with the 404 debug page and a profiler link on https with the client\'s port', () => {
    assert.equal(seed.status, 404, stack.nginx.errorLog());
    assert.equal(seed.headers['content-type'], 'text/html; charset=UTF-8');
    const token = String(seed.headers['x-debug-token']);
    assert.match(token, TOKEN);
    assert.equal(seed.headers['x-debug-token-link'], `${base}/_profiler/${token}`);
    assert.equal(
      seed.headers['x-debug-exception'],
      encodeURIComponent(`No route found for "GET ${base}/robots.txt"`).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    );
    assert.match(seed.body, /No route found for &quot;GET https:\/\/app\.example\.test:\d+\/robots\.txt&quot;/);
  });

  it('records the address nginx saw for the client, not nginx\'s and not the forged one', async () => {
    const profile = await stack.demo.app.profiler?.loadProfile(String(seed.headers['x-debug-token']));
    assert.equal(profile?.ip, CLIENT);
    const status = JSON.parse((await stack.get('/api/status')).body) as { clientIp: string; scheme: string };
    assert.deepEqual(status, { status: 'ok', clientIp: CLIENT, scheme: 'https' });
  });

  it('opens the record through the proxy by following X-Debug-Token-Link', async () => {
    const link = new URL(String(seed.headers['x-debug-token-link']));
    const page = await stack.get(link.pathname);
    assert.equal(page.status, 200);
    assert.match(page.body, /\/robots\.txt/);
    assert.ok(page.body.includes(CLIENT), 'the profile page shows the client address');
    assert.equal(page.headers['x-debug-token'], undefined, 'the profiler does not profile itself');
  });

  it('redirects to https on the host and port the client used', async () => {
    const blog = await stack.get('/blog');
    assert.equal(blog.status, 301);
    assert.equal(blog.headers.location, `${base}/blog/`);
    assert.match(String(blog.headers['set-cookie']), /; secure;/);
    const followed = await stack.get(new URL(String(blog.headers.location)).pathname);
    assert.equal(followed.status, 200);
    assert.equal(followed.body, 'blog index\n');
  });

  it('answers 405 with Allow through the proxy', async () => {
    const login = await stack.get('/login');
    assert.equal(login.status, 405);
    assert.equal(login.headers.allow, 'POST');
  });
});

describe('behind nginx sending the reference\'s fixed X-Forwarded-Port 443', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack(NGINX, 443);
  });
  after(() => stack?.close());

  it('answers exactly as the seed: links and redirects on https://app.example.test without a port', async () => {
    const seed = await stack.get('/robots.txt');
    assert.equal(seed.status, 404);
    const token = String(seed.headers['x-debug-token']);
    assert.equal(seed.headers['x-debug-token-link'], `https://app.example.test/_profiler/${token}`);
    assert.equal(seed.headers['x-debug-exception'], 'No%20route%20found%20for%20%22GET%20https%3A%2F%2Fapp.example.test%2Frobots.txt%22');
    const blog = await stack.get('/blog');
    assert.equal(blog.headers.location, 'https://app.example.test/blog/');
    // The link names port 443, which nginx does not listen on here: open the same path on nginx's port.
    const page = await stack.get(new URL(String(seed.headers['x-debug-token-link'])).pathname);
    assert.equal(page.status, 200);
  });
});

describe('behind nginx that is not in TRUSTED_PROXIES', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack('198.51.100.1', 'client');
  });
  after(() => stack?.close());

  it('ignores every forwarded header: plain http, the Host nginx sent, nginx\'s address as the client', async () => {
    const seed = await stack.get('/robots.txt');
    assert.equal(seed.status, 404);
    const token = String(seed.headers['x-debug-token']);
    // nginx forwards `Host: $host`, the name without the port; keel sees port 80 of plain http.
    assert.equal(seed.headers['x-debug-token-link'], `http://app.example.test/_profiler/${token}`);
    const profile = await stack.demo.app.profiler?.loadProfile(token);
    assert.equal(profile?.ip, NGINX);
    assert.equal(profile?.url, 'http://app.example.test/robots.txt');
    const status = JSON.parse((await stack.get('/api/status')).body) as { clientIp: string; scheme: string };
    assert.equal(status.clientIp, NGINX);
    assert.equal(status.scheme, 'http');
    const blog = await stack.get('/blog');
    assert.equal(blog.headers.location, 'http://app.example.test/blog/');
  });
});

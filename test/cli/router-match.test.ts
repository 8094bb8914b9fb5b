import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';
import { runKeel } from './run-keel.js';

const HOST_APP = fileURLToPath(new URL('./fixtures/host-app.ts', import.meta.url));

describe('keel router:match', () => {
  it('names the matching route and its parameters, exit code 0', async () => {
    const run = await runKeel(['router:match', '/items/42', '--method=patch']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^PATCH http:\/\/localhost\/items\/42$/m);
    assert.match(run.stdout, /^item_edit\s+matches\s+Route matches!$/m);
    assert.match(run.stdout, /^Route "item_edit" matches with id=42$/m);
  });

  it('writes a parameter decoded from the path on one line, its control characters escaped, so that none acts on the terminal', async () => {
    const run = await runKeel(['router:match', '/pages/%1b%5b2J%0a%c2%9b31m%e2%80%ae', '--app', HOST_APP]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Route "page" matches with page=1, section=\\u001b\[2J \\u009b31m\\u202e$/m);
  });

  it('names the parameters the controller would get, the route\'s defaults included', async () => {
    const run = await runKeel(['router:match', '/pages/help', '--format=json', '--app', HOST_APP]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as { verdict: { params: object } }).verdict.params, { page: '1', section: 'help' });
  });

  it('takes any HTTP token as a method, and refuses a Host the server would refuse, with exit code 2', async () => {
    const token = await runKeel(['router:match', '/about', '--method=M-SEARCH']);
    assert.match(token.stdout, /^M-SEARCH http:\/\/localhost\/about$/m);
    const host = await runKeel(['router:match', '/about', '--host=bad_host$']);
    assert.equal(host.code, 2);
    assert.match(host.stderr, /not a valid host name/);
  });

  it('answers 400 for a host TRUSTED_HOSTS does not list, as the server does before any routing, exit code 1', async () => {
    const env = { TRUSTED_HOSTS: '^app\\.example\\.com$' };
    const refused = await runKeel(['router:match', '/about', '--host=evil.test'], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^400 Bad Request\nUntrusted Host "evil\.test"\./m);
    const json = await runKeel(['router:match', '/about', '--host=evil.test', '--format=json'], { env });
    assert.deepEqual(JSON.parse(json.stdout).verdict, { kind: 'badRequest', status: 400, message: 'Untrusted Host "evil.test".' });
    assert.equal((await runKeel(['router:match', '/about', '--host=app.example.com'], { env })).code, 0);
  });

  it('shows the trailing-slash retry and the 301 with its Location', async () => {
    const run = await runKeel(['router:match', '/blog?page=2', '--host=app.example.test', '--scheme=https']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Pass 1: path \/blog, scheme https \(as requested\)$/m);
    assert.match(run.stdout, /^blog_index\s+almost\s+Path "\/blog\/" matches once the trailing slash is toggled: GET and HEAD are redirected$/m);
    assert.match(run.stdout, /^Pass 2: path \/blog\/, scheme https \(trailing slash toggled\)$/m);
    assert.match(run.stdout, /^301 Moved Permanently to https:\/\/app\.example\.test\/blog\/\?page=2$/m);
  });

  it('explains each route that misses: path, host, scheme, requirement and method', async () => {
    const run = await runKeel(['router:match', '/posts/Hello', '--method=DELETE', '--app', HOST_APP]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^admin\s+no\s+Path "\/admin" does not match$/m);
    assert.match(run.stdout, /^post_show\s+almost\s+Requirement for "slug" does not match \(\[a-z-\]\+\)$/m);
    assert.match(run.stdout, /^post_update\s+almost\s+Method "DELETE" does not match any of the required methods \(PUT\)$/m);
    const host = await runKeel(['router:match', '/admin', '--host=www.example.test', '--app', HOST_APP]);
    assert.match(host.stdout, /^admin\s+almost\s+Host "www\.example\.test" does not match the requirement \("admin\.example\.test"\)$/m);
    const scheme = await runKeel(['router:match', '/account', '--format=json', '--app', HOST_APP]);
    assert.equal(scheme.code, 0, scheme.stderr);
    const report = JSON.parse(scheme.stdout) as { trace: { attempts: { routes: { name: string; reason: string }[] }[] }; verdict: { kind: string; reason: string; location: string } };
    assert.equal(report.trace.attempts[0]!.routes.find((route) => route.name === 'account')?.reason, 'scheme');
    assert.deepEqual({ kind: report.verdict.kind, reason: report.verdict.reason, location: report.verdict.location }, { kind: 'redirect', reason: 'scheme', location: 'https://localhost/account' });
  });

  it('prints the 404 message with the referer and the inner routing error, exit code 1', async () => {
    const run = await runKeel(['router:match', '/robots.txt', '--referer=https://example.test/start']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /^404 Not Found\nNo route found for "GET http:\/\/localhost\/robots\.txt" \(from "https:\/\/example\.test\/start"\)\nCaused by: No routes found for "\/robots\.txt\/"\.$/m);
  });

  it('reports a 405 as JSON with the Allow list', async () => {
    const run = await runKeel(['router:match', '/login', '--format=json']);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout) as { verdict: unknown };
    assert.deepEqual(report.verdict, {
      kind: 'methodNotAllowed',
      status: 405,
      allow: ['POST'],
      message: 'No route found for "GET http://localhost/login": Method Not Allowed (Allow: POST)',
    });
  });

  it('refuses a path without a leading slash as a usage error', async () => {
    const run = await runKeel(['router:match', 'blog']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'error: the path must start with "/" (got "blog")\n');
  });

  it('refuses a path the server would answer 400 for, a space or a non-ASCII character, saying how to write it', async () => {
    const space = await runKeel(['router:match', '/a b']);
    assert.equal(space.code, 2);
    assert.equal(space.stderr, 'error: the path holds " ", which a request line cannot carry (the server would answer 400 Bad Request): percent-encode it, as %20\n');
    const accented = await runKeel(['router:match', '/café']);
    assert.equal(accented.code, 2);
    assert.match(accented.stderr, /percent-encode it, as %C3%A9\n$/);
  });

  describe('against the running demo', () => {
    let demo: RunningDemo;
    before(async () => {
      demo = await startDemo();
    });
    after(() => demo.close());

    for (const [method, path] of [['GET', '/login'], ['GET', '/robots.txt'], ['DELETE', '/blog']] as const) {
      it(`states the very message the server sends for ${method} ${path}`, async () => {
        const response = await rawRequest(demo.port, { method, path, headers: { host: `localhost:${demo.port}` } });
        const sent = decodeURIComponent(response.header('x-debug-exception') ?? '');
        const run = await runKeel(['router:match', path, `--method=${method}`, `--host=localhost:${demo.port}`, '--format=json', '--app', fileURLToPath(new URL('../../demo/routes.tsx', import.meta.url))], { cwd: demo.projectDir });
        const report = JSON.parse(run.stdout) as { verdict: { status: number; message: string } };
        assert.equal(report.verdict.status, response.status);
        assert.equal(report.verdict.message, sent);
      });
    }
  });
});

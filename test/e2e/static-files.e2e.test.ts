import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { fileResponse } from '../../src/http/file-response.js';
import { staticFiles } from '../../src/http/static-files.js';
import { createLogger } from '../../src/logging/create-logger.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  complete: boolean;
}

function send(port: number, path: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpRequest({ port, path, method, headers, host: '127.0.0.1', agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, complete: res.complete }));
    })
      .on('error', reject)
      .end();
  });
}

describe('static files and file responses over TCP (dev mode)', () => {
  let project = '';
  let outside = '';
  let app: App;
  let port = 0;
  const logged: string[] = [];
  const css = 'body { color: #222; }\n'.repeat(100);

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'keel-static-'));
    outside = await mkdtemp(join(tmpdir(), 'keel-static-outside-'));
    const publicDir = join(project, 'public');
    mkdirSync(join(publicDir, 'docs'), { recursive: true });
    mkdirSync(join(publicDir, 'empty'));
    writeFileSync(join(publicDir, 'app.css'), css);
    writeFileSync(join(publicDir, 'index.html'), '<h1>home</h1>');
    writeFileSync(join(publicDir, 'docs', 'index.html'), '<h1>docs</h1>');
    writeFileSync(join(publicDir, '.env'), 'APP_SECRET=s3cr3t');
    writeFileSync(join(project, 'secret.txt'), 'outside the folder');
    writeFileSync(join(outside, 'elsewhere.txt'), 'outside the folder');
    symlinkSync(join(outside, 'elsewhere.txt'), join(publicDir, 'link-out.txt'));
    symlinkSync(join(publicDir, '.env'), join(publicDir, 'env.txt'));
    writeFileSync(join(project, 'report.csv'), 'id,name\n1,ada\n');
    writeFileSync(join(project, 'shrinking.bin'), 'x'.repeat(100_000));
    const config = loadConfig({ cwd: project, env: { APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'memory' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: (line: string) => void logged.push(line) } });
    const routes = [
      { name: 'report', path: '/report', controller: () => fileResponse(join(project, 'report.csv'), { download: 'rapport été.csv' }) },
      {
        name: 'shrinking',
        path: '/shrinking',
        controller: () => {
          const response = fileResponse(join(project, 'shrinking.bin'));
          // The file changes between the response's making and its sending.
          truncateSync(join(project, 'shrinking.bin'), 10);
          return response;
        },
      },
      staticFiles({ root: publicDir, prefix: '/assets', maxAge: 60 }),
      staticFiles({ root: publicDir, prefix: '/bare', index: false, name: 'bare_files' }),
    ];
    app = createApp({ config, logger, routes });
    port = (await app.listen({ port: 0, host: '127.0.0.1' })).port;
  });
  after(async () => {
    await app.close();
    await rm(project, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it("serves a file with its type, length, dates and validators, streamed whole", async () => {
    const { status, headers, body } = await send(port, '/assets/app.css');
    assert.equal(status, 200);
    assert.equal(headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(headers['content-length'], String(css.length));
    assert.equal(headers['accept-ranges'], 'bytes');
    assert.equal(headers['cache-control'], 'max-age=60, public');
    // Whole seconds, rounded down: stat's Date is rounded to the millisecond, the next second for x.9995 s.
    assert.equal(headers['last-modified'], new Date(Math.floor(statSync(join(project, 'public', 'app.css')).mtimeMs / 1000) * 1000).toUTCString());
    assert.match(headers.etag ?? '', /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    assert.equal(body, css);
  });

  it('serves no file at its URL with a slash added, whether folders have an index or not', async () => {
    assert.equal((await send(port, '/bare/app.css')).status, 200);
    for (const path of ['/assets/app.css/', '/bare/app.css/']) assert.equal((await send(port, path)).status, 404, path);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const { status, headers, body } = await send(port, '/assets/app.css', { method: 'HEAD' });
    assert.equal(status, 200);
    assert.equal(headers['content-length'], String(css.length));
    assert.equal(body, '');
  });

  it('answers a conditional request the file still satisfies with 304 and nothing else', async () => {
    const { headers } = await send(port, '/assets/app.css');
    const validators: Record<string, string>[] = [{ 'if-none-match': headers.etag! }, { 'if-modified-since': headers['last-modified']! }];
    for (const conditions of validators) {
      const answer = await send(port, '/assets/app.css', { headers: conditions });
      assert.equal(answer.status, 304, JSON.stringify(conditions));
      assert.equal(answer.body, '');
      assert.equal(answer.headers['content-type'], undefined);
    }
    assert.equal((await send(port, '/assets/app.css', { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
  });

  it('answers a single byte range with 206, an unsatisfiable one with 416, and anything else with the whole file', async () => {
    const size = css.length;
    const first = await send(port, '/assets/app.css', { headers: { range: 'bytes=0-9' } });
    assert.deepEqual([first.status, first.headers['content-range'], first.headers['content-length'], first.body], [206, `bytes 0-9/${size}`, '10', css.slice(0, 10)]);
    const suffix = await send(port, '/assets/app.css', { headers: { range: 'bytes=-5' } });
    assert.deepEqual([suffix.status, suffix.body], [206, css.slice(-5)]);
    const past = await send(port, '/assets/app.css', { headers: { range: `bytes=${size}-` } });
    assert.deepEqual([past.status, past.headers['content-range'], past.body], [416, `bytes */${size}`, '']);
    for (const range of ['bytes=x-y', 'bytes=0-1,10-11', 'items=0-1']) {
      const whole = await send(port, '/assets/app.css', { headers: { range } });
      assert.deepEqual([whole.status, whole.body.length], [200, size], range);
    }
    // If-Range: the range only while the file is the one the client has, by a strong validator (RFC 9110
    // §13.1.5): its date as sent; the weak ETag never, so the whole file.
    const { headers } = await send(port, '/assets/app.css');
    assert.equal((await send(port, '/assets/app.css', { headers: { range: 'bytes=0-1', 'if-range': headers['last-modified']! } })).status, 206);
    for (const validator of [headers.etag!, headers.etag!.slice(2), 'Thu, 01 Jan 1970 00:00:00 GMT']) {
      assert.equal((await send(port, '/assets/app.css', { headers: { range: 'bytes=0-1', 'if-range': validator } })).status, 200, validator);
    }
  });

  it("serves a folder's index for its URL, the root's for the prefix and a slash", async () => {
    assert.equal((await send(port, '/assets/docs/')).body, '<h1>docs</h1>');
    assert.equal((await send(port, '/assets/')).body, '<h1>home</h1>');
  });

  it("redirects a folder's URL without its slash to the URL with it, query kept, when there is an index", async () => {
    const { status, headers } = await send(port, '/assets/docs?lang=fr');
    assert.deepEqual([status, headers.location], [301, `http://127.0.0.1:${port}/assets/docs/?lang=fr`]);
    // The prefix too: the root index's relative links then name files below /assets/, not beside it.
    const root = await send(port, '/assets');
    assert.deepEqual([root.status, root.headers.location], [301, `http://127.0.0.1:${port}/assets/`]);
  });

  it("serves a path with `.` segments as the path without them, as express.static does, a folder's without its slash redirected", async () => {
    for (const path of ['/assets/./app.css', '/assets/././app.css', '/assets/%2e/app.css', '/assets/.//app.css', '/assets/.%2Fapp.css']) {
      const answer = await send(port, path);
      assert.deepEqual([answer.status, answer.body], [200, css], path);
    }
    assert.equal((await send(port, '/assets/docs/./index.html')).body, '<h1>docs</h1>');
    assert.equal((await send(port, '/assets/docs/./')).body, '<h1>docs</h1>');
    assert.equal((await send(port, '/assets/./')).body, '<h1>home</h1>');
    const folder = await send(port, '/assets/docs/.?lang=fr');
    assert.deepEqual([folder.status, folder.headers.location], [301, `http://127.0.0.1:${port}/assets/docs/./?lang=fr`]);
    const root = await send(port, '/assets/.');
    assert.deepEqual([root.status, root.headers.location], [301, `http://127.0.0.1:${port}/assets/./`]);
  });

  it('answers 404, naming no path on disk, for anything that is not a file below the folder', async () => {
    for (const path of ['/assets/missing.css', '/assets/../secret.txt', '/assets/%2e%2e/secret.txt', '/assets/docs/%2e%2e/%2e%2e/secret.txt', '/assets/./../secret.txt', '/assets/docs/./%2e%2e/./%2e%2e/secret.txt', '/assets/.%2e/secret.txt', '/assets/./.env', '/assets/empty/.', '/assets/.env', '/assets/env.txt', '/assets/link-out.txt', '/assets/empty/', '/assets/empty', '/assets/app.css%00.txt', '/assets/docs%5C..%5C..%5Csecret.txt']) {
      const answer = await send(port, path);
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(answer.body, /s3cr3t|outside the folder/, path);
      assert.ok(!JSON.stringify(answer.headers).includes(project), path);
    }
  });

  it('refuses a file the server may not read before sending any header, 404 as a static file, 500 as a file response', async () => {
    // A server of its own, which drops root's privileges if it has them (see the fixture).
    const own = await mkdtemp(join(tmpdir(), 'keel-unreadable-'));
    try {
      mkdirSync(join(own, 'public'));
      writeFileSync(join(own, 'public', 'open.txt'), 'for anyone');
      writeFileSync(join(own, 'public', 'locked.txt'), 'not for the server');
      chmodSync(join(own, 'public', 'locked.txt'), 0o000);
      for (const dir of [own, join(own, 'public')]) chmodSync(dir, 0o755);
      const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('unreadable-file.fixture.ts', import.meta.url)), own], { stdio: ['ignore', 'ignore', 'pipe'] });
      try {
        const serverPort = await new Promise<number>((resolve, reject) => {
          let said = '';
          server.stderr!.on('data', (chunk: Buffer) => {
            said += chunk.toString();
            const listening = /listening (\d+)/.exec(said);
            if (listening) resolve(Number(listening[1]));
          });
          server.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${said}`)));
        });
        assert.equal((await send(serverPort, '/assets/open.txt')).body, 'for anyone');
        const asStatic = await send(serverPort, '/assets/locked.txt');
        assert.deepEqual([asStatic.status, asStatic.complete], [404, true]);
        const asResponse = await send(serverPort, '/locked');
        assert.deepEqual([asResponse.status, asResponse.complete], [500, true]);
        assert.ok(!JSON.stringify(asResponse.headers).includes(own));
      } finally {
        server.kill('SIGTERM');
      }
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('sends a file response as a download, its name encoded as RFC 6266 says', async () => {
    const { headers, body } = await send(port, '/report');
    assert.equal(headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(headers['content-disposition'], `attachment; filename="rapport ?t?.csv"; filename*=UTF-8''rapport%20%C3%A9t%C3%A9.csv`);
    assert.equal(body, 'id,name\n1,ada\n');
  });

  it('cuts the connection, and logs why, when the file no longer has the length it was sent with', async () => {
    const answer = await send(port, '/shrinking');
    assert.equal(answer.headers['content-length'], '100000');
    assert.equal(answer.complete, false);
    // The failure is logged before the request counts as settled, however long a loaded machine takes.
    await app.handler.settle();
    assert.ok(logged.some((line) => line.includes('response stream failed')));
    assert.equal((await send(port, '/assets/app.css')).status, 200);
  });
});

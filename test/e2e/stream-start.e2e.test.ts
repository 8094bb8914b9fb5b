import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { NotFoundHttpException } from '../../src/http/http-exception.js';
import { Response } from '../../src/http/response.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { waitFor } from '../helpers/wait-for.js';

interface Answer {
  status: number | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

function fetchText(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpRequest({ port, path, host: '127.0.0.1', agent: false, headers: { accept: 'text/html' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

// A source that fails before it has produced anything is the controller's failure: the error page with
// the error's status, not a connection cut before any answer (which a client reports as a reset).
describe('a streamed body that fails before its first chunk (dev mode, profiler on)', () => {
  let projectDir = '';
  const logged: string[] = [];
  const ended: string[] = [];
  // Called by the /never-starts source once it waits for its first row.
  let neverStartsWaiting = (): void => undefined;
  let app: App;
  let port = 0;

  before(async () => {
    projectDir = await mkdtemp(join(tmpdir(), 'keel-stream-start-'));
    const routes: RouteDefinition[] = [
      {
        name: 'export_fails',
        path: '/export-fails',
        controller: () => {
          const query = async (): Promise<string[]> => {
            await new Promise((resolve) => setImmediate(resolve));
            throw new Error('the export query failed');
          };
          async function* rows(): AsyncGenerator<string> {
            for (const row of await query()) yield `${row}\n`;
          }
          return new Response(rows(), 200, { 'Content-Type': 'text/csv' });
        },
      },
      {
        name: 'export_unknown',
        path: '/export-unknown',
        controller: () => {
          const exports = new Map<number, string[]>();
          async function* rows(): AsyncGenerator<string> {
            const found = exports.get(7);
            if (found === undefined) throw new NotFoundHttpException('No export numbered 7.');
            yield* found;
          }
          return new Response(rows(), 200, { 'Content-Type': 'text/csv' });
        },
      },
      { name: 'file_gone', path: '/file-gone', controller: () => new Response(createReadStream(join(projectDir, 'deleted.csv')), 200, { 'Content-Type': 'text/csv' }) },
      {
        name: 'web_fails',
        path: '/web-fails',
        controller: () => new Response(new ReadableStream<string>({ pull: () => Promise.reject(new Error('the upstream API refused')) }), 200, { 'Content-Type': 'text/plain' }),
      },
      {
        name: 'given_up',
        path: '/given-up',
        controller: () => {
          const source = new Readable({ read: () => undefined });
          setImmediate(() => source.destroy());
          return new Response(source);
        },
      },
      {
        name: 'empty',
        path: '/empty',
        controller: () => {
          async function* nothing(): AsyncGenerator<string> {}
          return new Response(nothing(), 200, { 'Content-Type': 'text/plain' });
        },
      },
      {
        name: 'slow_start',
        path: '/slow-start',
        controller: () => {
          const parts = ['one ', 'two ', 'three'];
          const source = new Readable({ read: () => void setTimeout(() => source.push(parts.shift() ?? null), 5) });
          return new Response(source, 200, { 'Content-Type': 'text/plain' });
        },
      },
      {
        name: 'generated',
        path: '/generated',
        controller: () => {
          async function* parts(): AsyncGenerator<string> {
            try {
              await new Promise((resolve) => setTimeout(resolve, 5));
              yield 'alpha ';
              yield 'beta';
            } finally {
              ended.push('generated');
            }
          }
          return new Response(parts(), 200, { 'Content-Type': 'text/plain' });
        },
      },
      {
        name: 'never_starts',
        path: '/never-starts',
        // A source waiting for its first row until the client leaves, as it is told to through request.signal.
        controller: (request) => {
          async function* rows(): AsyncGenerator<string> {
            try {
              neverStartsWaiting();
              await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
              request.signal.throwIfAborted();
              yield 'never sent';
            } finally {
              ended.push('never-starts');
            }
          }
          return new Response(rows(), 200, { 'Content-Type': 'text/csv' });
        },
      },
    ];
    const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'memory' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, file: undefined, destination: { write: (line: string) => void logged.push(line) } });
    app = createApp({ config, logger, routes });
    port = (await app.listen({ port: 0, host: '127.0.0.1' })).port;
  });
  after(async () => {
    await app.close();
    await rm(projectDir, { recursive: true, force: true });
  });

  it("answers the error page of the source's error, logs it, records it, and keeps serving", async () => {
    const answer = await fetchText(port, '/export-fails');
    assert.equal(answer.status, 500);
    assert.match(String(answer.headers['content-type']), /^text\/html/);
    assert.match(answer.body, /the export query failed/);
    assert.match(answer.body, /keel Exception/);
    assert.match(String(answer.headers['x-debug-token']), /^[0-9a-f]{6}$/);
    await waitFor(() => logged.some((line) => line.includes('Uncaught PHP Exception Error: "the export query failed"')));
    assert.equal((await fetchText(port, '/empty')).status, 200);
  });

  it("gives an HTTP error thrown by the source its own status and page", async () => {
    const answer = await fetchText(port, '/export-unknown');
    assert.equal(answer.status, 404);
    assert.match(answer.body, /No export numbered 7\./);
  });

  it('answers 500 for a file gone before it could be read, a failing web stream and a stream destroyed without data', async () => {
    for (const path of ['/file-gone', '/web-fails', '/given-up']) {
      const answer = await fetchText(port, path);
      assert.equal(answer.status, 500, path);
    }
    assert.match((await fetchText(port, '/web-fails')).body, /the upstream API refused/);
    assert.match((await fetchText(port, '/file-gone')).body, /ENOENT/);
  });

  it('sends the first chunk it waited for, then the rest, from a node stream and from a generator', async () => {
    assert.deepEqual(await fetchText(port, '/slow-start').then(({ status, body }) => [status, body]), [200, 'one two three']);
    assert.deepEqual(await fetchText(port, '/generated').then(({ status, body }) => [status, body]), [200, 'alpha beta']);
    await waitFor(() => ended.includes('generated'));
  });

  // A response already has many close listeners (node's, pipeline's, request.signal's, keel's own): past ten
  // node warns of a leak on every streamed response.
  it('sends a node stream without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await fetchText(port, '/slow-start')).body, 'one two three');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });

  it('sends an empty 200 for a source that ends without a chunk', async () => {
    const answer = await fetchText(port, '/empty');
    assert.equal(answer.status, 200);
    assert.equal(answer.body, '');
  });

  it('lets go of a source still waiting for its first chunk when the client leaves, and logs no error for it', async () => {
    const before = logged.length;
    const waiting = new Promise<void>((resolve) => (neverStartsWaiting = resolve));
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ port, path: '/never-starts', host: '127.0.0.1', agent: false });
      req.on('error', () => resolve());
      req.end();
      // Gone while the source waits for its first row, whenever the request reaches it: a client gone before
      // would leave no source to let go of.
      void waiting.then(() => {
        req.destroy();
        resolve();
      });
      req.on('response', () => reject(new Error('no answer was expected')));
    });
    await waitFor(() => ended.includes('never-starts'));
    // A stream failure would be logged before the request counts as settled.
    await app.handler.settle();
    assert.deepEqual(
      logged.slice(before).filter((line) => /ERROR|CRITICAL/.test(line)),
      [],
    );
  });
});

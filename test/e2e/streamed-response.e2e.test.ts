import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { get, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { Response } from '../../src/http/response.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { Subscriber } from '../../src/kernel/event-dispatcher.js';
import type { ResponseEvent } from '../../src/kernel/events.js';
import type { RouteDefinition } from '../../src/routing/route.js';
import { waitFor } from '../helpers/wait-for.js';

// What the streaming routes report back to the test: a source's cleanup ran, a step was reached.
class Signals {
  #waiting = new Map<string, () => void>();
  #seen = new Set<string>();

  fire(name: string): void {
    this.#seen.add(name);
    this.#waiting.get(name)?.();
  }

  /** Resolves once `name` fires; fails the test after 5 s rather than hang it. */
  when(name: string): Promise<void> {
    if (this.#seen.has(name)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`"${name}" did not happen within 5 s`)), 5000);
      this.#waiting.set(name, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  has(name: string): boolean {
    return this.#seen.has(name);
  }
}

function open(port: number, path: string, method = 'GET'): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpRequest({ port, path, method, host: '127.0.0.1', agent: false }, resolve)
      .on('error', reject)
      .end();
  });
}

async function text(res: IncomingMessage): Promise<string> {
  let body = '';
  res.setEncoding('utf8');
  for await (const chunk of res) body += chunk as string;
  return body;
}

describe('streamed response bodies over TCP (dev mode, profiler on)', () => {
  let projectDir = '';
  const signals = new Signals();
  const logged: string[] = [];
  let app: App;
  let port = 0;
  let file = '';

  before(async () => {
    projectDir = await mkdtemp(join(tmpdir(), 'keel-stream-'));
    file = join(projectDir, 'report.csv');
    writeFileSync(file, 'id,name\n'.repeat(20_000));
    const routes: RouteDefinition[] = [
      { name: 'file', path: '/file', controller: () => new Response(createReadStream(file), 200, { 'Content-Type': 'text/csv' }) },
      {
        name: 'sized_file',
        path: '/sized-file',
        controller: () => new Response(createReadStream(file), 200, { 'Content-Type': 'text/csv', 'Content-Length': '160000' }),
      },
      {
        name: 'ticks',
        path: '/ticks',
        // `?id=` names the run: the second event waits until the test fires `release-<id>`.
        controller: (request) => {
          const id = request.query.get('id') ?? '';
          async function* ticks() {
            try {
              yield 'data: first\n\n';
              await signals.when(`release-${id}`);
              yield 'data: second\n\n';
            } finally {
              signals.fire(`ended-${id}`);
            }
          }
          return new Response(ticks(), 200, { 'Content-Type': 'text/event-stream' });
        },
      },
      {
        name: 'page',
        path: '/page',
        controller: () => new Response(Readable.from(['<html><body>', 'streamed', '</body></html>']), 200, { 'Content-Type': 'text/html; charset=UTF-8' }),
      },
      {
        name: 'endless',
        path: '/endless',
        controller: () => {
          const source = new Readable({ read: () => source.push('x'.repeat(16_384)) });
          source.on('close', () => signals.fire('endless-closed'));
          return new Response(source);
        },
      },
      {
        name: 'waiting',
        path: '/waiting',
        // A server-sent events source waiting for news that never comes: it cannot be stopped from outside
        // while it waits, as an async generator cannot return before its pending step settles.
        controller: () => {
          async function* waiting() {
            yield 'data: hello\n\n';
            await new Promise(() => undefined);
          }
          return new Response(waiting(), 200, { 'Content-Type': 'text/event-stream' });
        },
      },
      {
        name: 'news',
        path: '/news',
        // The same wait, ended by the request's signal when the client goes away.
        controller: (request) => {
          async function* news() {
            try {
              yield 'data: hello\n\n';
              await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
            } finally {
              signals.fire(`news-ended-${String(request.signal.aborted)}`);
            }
          }
          return new Response(news(), 200, { 'Content-Type': 'text/event-stream' });
        },
      },
      {
        name: 'bad_header',
        path: '/bad-header',
        controller: () => {
          const source = Readable.from(['never sent']);
          source.on('close', () => signals.fire('bad-header-source-closed'));
          return new Response(source, 200, { 'X Bad Name': 'x' });
        },
      },
      {
        name: 'listener_fails',
        path: '/listener-fails',
        controller: () => {
          const source = Readable.from(['never sent']);
          source.on('close', () => signals.fire('listener-fails-source-closed'));
          return new Response(source);
        },
      },
      {
        name: 'destroyed',
        path: '/destroyed',
        // A source that gives up without saying why: destroyed, no error.
        controller: () => {
          const source = new Readable({ read: () => undefined });
          source.push('part 1\n');
          setImmediate(() => source.destroy());
          return new Response(source);
        },
      },
      {
        name: 'web_waiting',
        path: '/web-waiting',
        // A web stream whose next chunk never comes: its pull stays pending.
        controller: () => {
          let sent = false;
          const source = new ReadableStream<string>({
            pull: (controller) => {
              if (sent) return new Promise(() => undefined);
              sent = true;
              controller.enqueue('data: hello\n\n');
              return undefined;
            },
            cancel: () => signals.fire('web-waiting-cancelled'),
          });
          return new Response(source, 200, { 'Content-Type': 'text/event-stream' });
        },
      },
      {
        name: 'broken',
        path: '/broken',
        controller: () => {
          async function* broken() {
            yield 'partial ';
            await new Promise((resolve) => setImmediate(resolve));
            throw new Error('the export query failed');
          }
          return new Response(broken());
        },
      },
      {
        name: 'head_checked',
        path: '/head-checked',
        methods: ['GET', 'HEAD'],
        controller: () => {
          const source = Readable.from(['never read']);
          source.on('close', () => signals.fire('head-source-closed'));
          return new Response(source);
        },
      },
    ];
    const config = loadConfig({ cwd: projectDir, env: { APP_ENV: 'dev', KEEL_PROFILER_STORAGE: 'memory' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, file: undefined, destination: { write: (line: string) => void logged.push(line) } });
    // A response listener of the application that fails on one route.
    const failing: Subscriber = {
      subscribedEvents: () => [
        {
          event: 'response',
          listener: (event: ResponseEvent) => {
            if (event.request.pathInfo === '/listener-fails' && event.isMainRequest) throw new Error('listener failed');
          },
        },
      ],
    };
    app = createApp({ config, logger, routes, subscribers: [failing] });
    port = (await app.listen({ port: 0, host: '127.0.0.1' })).port;
  });
  after(async () => {
    await app.close();
    await rm(projectDir, { recursive: true, force: true });
  });

  it('sends a file stream chunked, whole, with no Content-Length of keel\'s making', async () => {
    const res = await open(port, '/file');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.headers['content-type'], 'text/csv; charset=UTF-8');
    assert.ok(res.headers['x-debug-token'], 'the streamed answer is profiled like any other');
    assert.equal(await text(res), 'id,name\n'.repeat(20_000));
  });

  it("keeps the Content-Length a controller declared for its stream (a file's size) instead of chunking", async () => {
    const res = await open(port, '/sized-file');
    assert.equal(res.headers['content-length'], '160000');
    assert.equal(res.headers['transfer-encoding'], undefined);
    assert.equal((await text(res)).length, 160_000);
  });

  it('hands each chunk to the client as the source yields it, before the source has finished', async () => {
    const res = await open(port, '/ticks?id=a');
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=UTF-8');
    res.setEncoding('utf8');
    const chunks = res[Symbol.asyncIterator]();
    // The generator is parked after its first event until the test lets it go: the event arrived first.
    assert.equal((await chunks.next()).value, 'data: first\n\n');
    assert.equal(signals.has('ended-a'), false);
    signals.fire('release-a');
    let rest = '';
    for (let step = await chunks.next(); step.done !== true; step = await chunks.next()) rest += step.value as string;
    assert.equal(rest, 'data: second\n\n');
    await signals.when('ended-a');
  });

  it('leaves an HTML stream without the toolbar, and records the profile once the stream has ended', async () => {
    const res = await open(port, '/page');
    assert.equal(await text(res), '<html><body>streamed</body></html>');
    const token = res.headers['x-debug-token'] as string;
    assert.match(token, /^[0-9a-f]{6}$/);
    assert.ok(res.headers['x-debug-token-link']);
    // Read-your-writes: the profile is there once the body has been received.
    const profile = await open(port, `/_profiler/${token}?panel=response`);
    assert.equal(profile.statusCode, 200);
    assert.match(await text(profile), /text\/html; charset=UTF-8/);
  });

  it('stops reading the source when the client goes away mid-body, and logs no error for it', async () => {
    const before = logged.length;
    await leaveAfterFirstChunk(port, '/endless');
    await signals.when('endless-closed');
    // A stream failure would be logged before the request counts as settled.
    await app.handler.settle();
    assert.deepEqual(logged.slice(before).filter((line) => /stream failed|CRITICAL/.test(line)), []);
  });

  it('is done with a request whose client went away, even when its source cannot be stopped while it waits', { timeout: 30_000 }, async () => {
    await leaveAfterFirstChunk(port, '/waiting');
    // What a graceful stop waits for: every request handled so far, its terminate listeners included. A
    // settle() that waited on the source would never end: the test's timeout fails it, however slow the machine.
    await app.handler.settle();
  });

  it('cancels a web stream whose client went away, even while it waits for its next chunk', async () => {
    await leaveAfterFirstChunk(port, '/web-waiting');
    await signals.when('web-waiting-cancelled');
  });

  it("aborts the request's signal when its client goes away, so that a waiting source can stop", async () => {
    await leaveAfterFirstChunk(port, '/news');
    await signals.when('news-ended-true');
  });

  it('cuts the connection when the source fails midway, logs the error, and keeps serving', async () => {
    const res = await open(port, '/broken');
    assert.equal(res.statusCode, 200);
    let received = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (received += chunk));
    // An unfinished chunked body: node reports it as aborted, never as a complete response.
    await new Promise<void>((resolve) => res.on('close', resolve));
    assert.equal(res.complete, false);
    assert.equal(received, 'partial ');
    await waitFor(() => logged.some((line) => line.includes('response stream failed')));
    const line = logged.find((entry) => entry.includes('response stream failed'))!;
    assert.match(line, /request\.ERROR/);
    assert.match(line, /the export query failed/);
    const next = await open(port, '/file');
    assert.equal(next.statusCode, 200);
    await text(next);
  });

  it('lets go of a stream whose response is replaced by an error page, however it failed', async () => {
    assert.equal((await open(port, '/bad-header')).statusCode, 500);
    await signals.when('bad-header-source-closed');
    assert.equal((await open(port, '/listener-fails')).statusCode, 500);
    await signals.when('listener-fails-source-closed');
  });

  it('logs a source destroyed before it ended, which cut the response short', async () => {
    const res = await open(port, '/destroyed');
    await text(res).catch(() => undefined);
    await waitFor(() => logged.some((line) => line.includes('response stream failed') && line.includes('/destroyed')));
  });

  it('sends no body for HEAD and lets go of the stream at once', async () => {
    const res = await open(port, '/head-checked', 'HEAD');
    assert.equal(res.statusCode, 200);
    assert.equal(await text(res), '');
    await signals.when('head-source-closed');
  });

  it('ends an HTTP/1.0 answer by closing the connection, as it cannot be chunked', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /ticks?id=b HTTP/1.0\r\nHost: localhost\r\n\r\n'));
      let data = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        data += chunk;
        if (data.includes('data: first')) signals.fire('release-b');
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const [head = '', body] = received.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(head, /transfer-encoding|content-length/i);
    assert.equal(body, 'data: first\n\ndata: second\n\n');
  });
});

/** Reads the first chunk of a streamed answer, then goes away as a closed browser tab does. */
function leaveAfterFirstChunk(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get({ port, path, host: '127.0.0.1', agent: false }, (res) => {
      res.once('data', () => {
        res.destroy();
        resolve();
      });
    }).on('error', reject);
  });
}


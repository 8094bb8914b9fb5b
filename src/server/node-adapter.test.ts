import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createReadStream } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener, type RequestListener } from './node-adapter.js';

interface Answer {
  status: number;
  body: string;
  statusText?: string;
  length?: string;
}

function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpRequest({ port, path, host: '127.0.0.1' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      // Non-enumerable: deepEqual on { status, body } still compares just those two.
      res.on('end', () => resolve(Object.defineProperties({ status: res.statusCode ?? 0, body }, { statusText: { value: res.statusMessage }, length: { value: res.headers['content-length'] } })));
    })
      .on('error', reject)
      .end();
  });
}

/** The whole answer's bytes, as they came over the connection. */
function rawGet(port: number, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

async function* streamOf(text: string): AsyncGenerator<string> {
  yield text;
}

async function* objectAfter(text: string): AsyncGenerator<unknown> {
  yield text;
  await delay(10);
  yield { data: 'an event the application meant to have written' };
}

async function* failingAfter(text: string): AsyncGenerator<string> {
  yield text;
  await delay(10);
  throw new Error('the source failed');
}

function destroyedAfter(text: string): Readable {
  const source = new Readable({ read: () => undefined });
  source.push(text);
  setTimeout(() => source.destroy(), 10);
  return source;
}

/** How an HTTP/1.0 answer, whose body ends with its connection, ends: `end`, or the connection's error code. */
function http10Ending(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    socket.resume();
    socket.on('end', () => resolve('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('createRequestListener', () => {
  const kernel = new Kernel();
  const fatal: unknown[] = [];
  const terminated: string[] = [];
  let listener: RequestListener;
  let server: Server;
  let port = 0;

  before(async () => {
    kernel.dispatcher.on('request', (event) => {
      const path = event.request.pathInfo;
      if (path === '/sync') event.setResponse(new Response('now'));
      else if (path === '/async') return new Promise((resolve) => setImmediate(resolve)).then(() => event.setResponse(new Response('later')));
      // node refuses a header name that is no token when the head is written: the write itself fails.
      else if (path === '/unwritable') event.setResponse(new Response('never sent', 200, { 'X Bad:': 'value' }));
      else if (path === '/short-length') event.setResponse(new Response('hello world\n', 200, { 'Content-Length': '3' }));
      else if (path === '/repeated-length') event.setResponse(new Response('hello', 200, [['Content-Length', '5'], ['Content-Length', '9']]));
      else if (path === '/repeated-wrong-length') event.setResponse(new Response('hello', 200, [['Content-Length', '9'], ['Content-Length', '5']]));
      else if (path === '/no-content-length') event.setResponse(new Response('', 204, [['Content-Length', '0'], ['Transfer-Encoding', 'chunked']]));
      else if (path === '/repeated-stream-length') event.setResponse(new Response(streamOf('hello'), 200, [['Content-Length', '5'], ['Content-Length', '9']]));
      // node refuses a non-ASCII Content-Disposition once a Content-Length came before it, half-way through the head.
      else if (path === '/unwritable-after-length') event.setResponse(new Response('x', 200, { 'Content-Length': '1', 'Content-Disposition': 'attachment; filename="été.csv"' }));
      else if (path === '/never') return new Promise<void>(() => undefined);
      else if (path === '/interim') event.setResponse(new Response('not final', 103));
      else if (path === '/missing-file') event.setResponse(new Response(createReadStream(join(import.meta.dirname, 'no-such-file.csv')), 200, { 'Content-Type': 'text/csv' }));
      else if (path === '/obs-text') event.setResponse(new Response('déjà', 200, { 'X-Name': 'café' }));
      else if (path === '/text-ascii') event.setResponse(new Response('plain <b>ascii</b>\n'));
      // One-byte characters past ASCII (é, ÿ) and two-byte ones (€, ✓): each must go out as UTF-8.
      else if (path === '/text-latin1') event.setResponse(new Response('déjà ÿ'));
      else if (path === '/text-wide') event.setResponse(new Response('déjà € ✓ 😀'));
      else if (path === '/keep-alive-header') event.setResponse(new Response('kept?', 200, { Connection: 'keep-alive', 'Keep-Alive': 'timeout=600' }));
      else if (path === '/close-header') event.setResponse(new Response('closing', 200, { Connection: 'Close' }));
      else if (path === '/streamed') event.setResponse(new Response(streamOf('whole')));
      else if (path === '/failing-generator') event.setResponse(new Response(failingAfter('part')));
      else if (path === '/object-chunk') event.setResponse(new Response(objectAfter('part') as AsyncIterable<string>));
      else if (path === '/failing-readable') event.setResponse(new Response(Readable.from(failingAfter('part'))));
      else if (path === '/destroyed-readable') event.setResponse(new Response(destroyedAfter('part')));
      else if (path === '/obs-text-buffer') event.setResponse(new Response(Buffer.from('déjà'), 200, { 'X-Name': 'café' }));
      else event.setResponse(new Response('missing', 404));
    });
    kernel.dispatcher.on('terminate', (event) => {
      if (event.request.pathInfo === '/async') return new Promise((resolve) => setImmediate(resolve)).then(() => void terminated.push('/async'));
      terminated.push(event.request.pathInfo);
    });
    listener = createRequestListener(kernel, { onFatal: (error) => fatal.push(error) });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a request handled synchronously and runs its terminate listeners', async () => {
    assert.deepEqual(await get(port, '/sync'), { status: 200, body: 'now' });
    assert.ok(terminated.includes('/sync'));
  });

  it('answers a request handled asynchronously; settle() waits for its terminate listeners', async () => {
    assert.deepEqual(await get(port, '/async'), { status: 200, body: 'later' });
    await listener.settle();
    assert.ok(terminated.includes('/async'));
  });

  it('answers 500 when the response cannot be written, reports it, and keeps serving', async () => {
    const failed = await get(port, '/unwritable');
    assert.equal(failed.status, 500);
    assert.equal(failed.statusText, 'Internal Server Error', 'not the reason phrase of the write that failed');
    assert.equal(failed.body, 'Internal Server Error\n');
    assert.equal(fatal.length, 1);
    assert.deepEqual(await get(port, '/sync'), { status: 200, body: 'now' });
  });

  it('answers 500 for a 1xx response, which is interim and would leave the client waiting for the final one', async () => {
    const before = fatal.length;
    assert.deepEqual(await get(port, '/interim'), { status: 500, body: 'Internal Server Error\n' });
    assert.match(String(fatal[before]), /informational and cannot end a response/);
  });

  it("frames the 500 by its own length when the failed head had declared another", async () => {
    const failed = await get(port, '/unwritable-after-length');
    assert.equal(failed.status, 500);
    assert.equal(failed.body, 'Internal Server Error\n');
    assert.equal(failed.length, '22');
  });

  it('sends one Content-Length when the application declared two, so that no client or proxy has to pick one', async () => {
    for (const path of ['/repeated-length', '/repeated-wrong-length', '/repeated-stream-length']) {
      const answer = (await rawGet(port, path)).toString('latin1');
      assert.deepEqual(answer.match(/\r\ncontent-length: [^\r]*/gi), ['\r\nContent-Length: 5'], path);
      assert.ok(answer.endsWith('\r\n\r\nhello'), path);
    }
  });

  it('sends neither Content-Length nor Transfer-Encoding with a 204, whatever the application set (RFC 9110 §8.6, RFC 9112 §6.1)', async () => {
    const answer = (await rawGet(port, '/no-content-length')).toString('latin1');
    assert.match(answer, /^HTTP\/1\.1 204 No Content\r\n/);
    assert.doesNotMatch(answer, /\r\n(content-length|transfer-encoding):/i);
    assert.ok(answer.endsWith('\r\n\r\n'));
  });

  it("leaves Connection to the server: an application's keep-alive never overrides a client's close, its close is honoured", async () => {
    const keptOpen = (await rawGet(port, '/keep-alive-header')).toString('latin1');
    assert.match(keptOpen, /\r\nConnection: close\r\n/i);
    assert.doesNotMatch(keptOpen, /keep-alive/i);
    const asked = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /close-header HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      // The server ends the connection itself, the client having asked for nothing.
      socket.on('end', () => resolve(text)).on('error', reject);
    });
    assert.match(asked, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(asked, /\r\nConnection: close\r\n/i);
  });

  it('writes a header value holding obs-text as Latin-1 bytes, whether the body is a string or a Buffer', async () => {
    for (const path of ['/obs-text', '/obs-text-buffer']) {
      const answer = await rawGet(port, path);
      assert.ok(answer.includes(Buffer.from('\r\nX-Name: caf\xe9\r\n', 'latin1')), `${path}: ${answer.toString('latin1')}`);
      assert.ok(answer.subarray(answer.indexOf('\r\n\r\n') + 4).equals(Buffer.from('déjà')), `${path}: the body stays UTF-8`);
      assert.ok(answer.includes('\r\nContent-Length: 6\r\n'), path);
    }
  });

  it('sends a text body as its UTF-8 bytes, with their length, whether it is ASCII or not', async () => {
    for (const [path, text] of [['/text-ascii', 'plain <b>ascii</b>\n'], ['/text-latin1', 'déjà ÿ'], ['/text-wide', 'déjà € ✓ 😀']] as const) {
      const answer = await rawGet(port, path);
      assert.ok(answer.subarray(answer.indexOf('\r\n\r\n') + 4).equals(Buffer.from(text)), `${path}: ${answer.toString('latin1')}`);
      assert.ok(answer.includes(`\r\nContent-Length: ${Buffer.byteLength(text)}\r\n`), path);
    }
  });

  it('settles without a response still being made whose connection is gone (a controller that never answers)', { timeout: 10_000 }, async () => {
    const arrived = new Promise((resolve) => server.once('request', resolve));
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      // Cut once the request has arrived, as a stop's grace period does: cut before, nothing would be in flight.
      void arrived.then(() => socket.destroy());
      socket.on('close', () => resolve());
    });
    await listener.settle();
  });

  it('answers HEAD for a stream that fails once let go of (a missing file), and keeps serving', async () => {
    const head = await new Promise<number>((resolve, reject) => {
      httpRequest({ port, path: '/missing-file', host: '127.0.0.1', method: 'HEAD' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(head, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await get(port, '/sync'), { status: 200, body: 'now' });
  });

  it('resets the connection of a streamed body whose source fails, so that a client framing it by the close sees it cut', async () => {
    assert.equal(await http10Ending(port, '/streamed'), 'end');
    for (const path of ['/failing-generator', '/object-chunk', '/failing-readable', '/destroyed-readable']) assert.equal(await http10Ending(port, path), 'ECONNRESET', path);
    assert.deepEqual(await get(port, '/sync'), { status: 200, body: 'now' });
  });

  it('frames the body by its real length, whatever Content-Length a controller set', async () => {
    const answer = await get(port, '/short-length');
    assert.equal(answer.body, 'hello world\n');
    assert.equal(answer.length, '12');
  });
});

describe('a streamed body whose client goes away', () => {
  const kernel = new Kernel();
  const streamErrors: unknown[] = [];
  const stopped: string[] = [];
  let listener: RequestListener;
  let server: Server;
  let port = 0;

  before(async () => {
    kernel.dispatcher.on('request', (event) => {
      const { request } = event;
      // Server-sent events that wait on request.signal the way node's own APIs do: the wait rejects with an
      // AbortError once the client is gone (timers/promises, events.on), or the reason itself (throwIfAborted).
      async function* events(wait: () => Promise<unknown>) {
        try {
          for (;;) {
            yield 'data: tick\n\n';
            await wait();
          }
        } finally {
          stopped.push(request.pathInfo);
        }
      }
      const waits: Record<string, () => Promise<unknown>> = {
        '/timer': () => delay(20, undefined, { signal: request.signal }),
        '/throw-if-aborted': () => delay(20).then(() => request.signal.throwIfAborted()),
      };
      const wait = waits[request.pathInfo];
      event.setResponse(wait === undefined ? new Response('missing', 404) : new Response(events(wait), 200, { 'Content-Type': 'text/event-stream' }));
    });
    listener = createRequestListener(kernel, { onStreamError: (error) => streamErrors.push(error) });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const path of ['/timer', '/throw-if-aborted']) {
    it(`stops a source that waits on request.signal and reports no stream failure (${path})`, { timeout: 30_000 }, async () => {
      streamErrors.length = 0;
      await new Promise<void>((resolve, reject) => {
        httpRequest({ port, path, host: '127.0.0.1', agent: false }, (res) => res.once('data', () => (res.destroy(), resolve())))
          .on('error', reject)
          .end();
      });
      // Bounded by the test's timeout, not by a count of looks: a loaded machine may take longer than a second.
      while (!stopped.includes(path)) await delay(10);
      // A failure would be reported before the response counts as settled.
      await listener.settle();
      assert.deepEqual(streamErrors, []);
    });
  }
});

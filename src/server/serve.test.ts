import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { HttpException } from '../http/http-exception.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { converse, exchange, statusLines } from '../../test/helpers/raw-http.js';
import { servePages } from './page-server.fixture.js';
import { serve, type RunningServer } from './serve.js';

/**
 * A point a handler stops at until the test lets it go: `reached` resolves when a handler gets there, so
 * the test acts while a response is being made, however late its request arrives.
 */
function gate(): { pass(): Promise<void>; reached: Promise<void>; release(): void } {
  let arrive = (): void => undefined;
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    pass: () => {
      arrive();
      return released;
    },
    reached,
    release,
  };
}

describe('serve', () => {
  let running: RunningServer;

  before(async () => {
    // Answered a tick later: the parser has read what follows the request by then.
    running = await servePages({ later: true });
  });
  after(() => running.close());

  it('answers nothing more after a request that asked to close the connection, whatever follows it', async () => {
    const received = await exchange(running.port, 'GET /first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK']);
    assert.match(received, /page \/first\n$/);
  });

  it('answers a malformed request pipelined after a good one after the good one\'s response, never in its midst', async () => {
    const received = await exchange(running.port, 'GET /first HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n');
    assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
    assert.match(received, /page \/first\nHTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('answers a malformed request, or a CONNECT, pipelined after two good ones after both their responses, the second of which ends last', async () => {
    let release = (): void => undefined;
    let released = Promise.resolve();
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => {
      const answer = (): void => event.setResponse(new Response(`page ${event.request.pathInfo}\n`));
      // The second waits until the client has read the first's answer: when the first's response ends, the
      // second's has not.
      return event.request.pathInfo === '/first' ? new Promise<void>((resolve) => setImmediate(resolve)).then(answer) : released.then(answer);
    });
    const server = await serve(createRequestListener(kernel), { port: 0 });
    try {
      for (const last of ['NOT HTTP AT ALL\r\n\r\n', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n']) {
        released = new Promise<void>((resolve) => (release = resolve));
        const received = await converse(server.port, `GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n${last}`, (all) => {
          if (all.endsWith('page /first\n')) release();
        });
        assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request'], received);
        assert.match(received, /page \/first\nHTTP\/1\.1 200 OK\r\n[^]*\r\n\r\npage \/second\nHTTP\/1\.1 400 Bad Request\r\n/);
      }
    } finally {
      await server.close();
    }
  });

  it('answers a CONNECT pipelined after a good request after its response, not in its place', async () => {
    const received = await exchange(running.port, 'GET /first HTTP/1.1\r\nHost: x\r\n\r\nCONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n');
    assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
    assert.match(received, /page \/first\nHTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('still answers a malformed request on its own with 400 and closes', async () => {
    const received = await exchange(running.port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.deepEqual(statusLines(received), ['HTTP/1.1 400 Bad Request']);
    assert.match(received, /\r\nDate: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/);
    assert.match(received, /\r\nConnection: close\r\n/);
  });

  it('once stopping, closes each keep-alive connection as its response ends instead of serving it until the grace period', { timeout: 30_000 }, async () => {
    const first = gate();
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => first.pass().then(() => event.setResponse(new Response('slow\n'))));
    // A grace period far longer than the test's timeout: only closing idle connections ends the stop in time.
    const server = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 120_000 });
    const conversation = converse(server.port, 'GET /first HTTP/1.1\r\nHost: x\r\n\r\n', (received, socket) => {
      // A keep-alive client sends its next request as soon as an answer is complete.
      if (received.endsWith('slow\n') && socket.writable) socket.write('GET /again HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    // The stop begins while the first response is being made, whenever its request arrives.
    await first.reached;
    const stopped = server.close();
    first.release();
    const received = await conversation;
    await stopped;
    const answers = statusLines(received);
    assert.equal(answers[0], 'HTTP/1.1 200 OK');
    // A request that still got in before the connection was closed is answered with Connection: close.
    assert.ok(answers.length <= 2, received);
    if (answers.length === 2) assert.match(received.slice(received.indexOf('HTTP/1.1', 1)), /\r\nConnection: close\r\n/);
  });

  it('once stopping, makes a response not begun yet close its connection, though its request came before the stop', { timeout: 30_000 }, async () => {
    const slow = gate();
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => slow.pass().then(() => event.setResponse(new Response('late\n'))));
    const server = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 120_000 });
    const received = exchange(server.port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slow.reached;
    const stopped = server.close();
    slow.release();
    await stopped;
    const answer = await received;
    assert.deepEqual(statusLines(answer), ['HTTP/1.1 200 OK']);
    assert.match(answer, /\r\nConnection: close\r\n/);
  });

  it('once stopping, runs no request pipelined behind a response that will close the connection, as it would never be answered', { timeout: 30_000 }, async () => {
    const handled: string[] = [];
    let started = (): void => undefined;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let release = (): void => undefined;
    const firstReleased = new Promise<void>((resolve) => (release = resolve));
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => {
      handled.push(event.request.pathInfo);
      if (event.request.pathInfo !== '/first') return event.setResponse(new Response('second\n'));
      started();
      return firstReleased.then(() => event.setResponse(new Response('first\n')));
    });
    const server = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 120_000 });
    const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n'));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await firstStarted;
    const stopped = server.close();
    // node parses the pipelined request, and emits it, while the first is still being answered.
    const secondParsed = new Promise((resolve) => server.server.once('request', resolve));
    socket.write('POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await secondParsed;
    release();
    await Promise.all([closed, stopped]);
    assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK']);
    assert.match(received, /\r\nConnection: close\r\n/);
    assert.deepEqual(handled, ['/first']);
  });

  it('once stopping, lets a response already ended finish reaching a slow client, instead of cutting it with the idle connections', { timeout: 60_000 }, async () => {
    // Larger than what the kernel buffers on both sides: the rest waits in the server's socket.
    const size = 32 * 1024 * 1024;
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => event.setResponse(new Response(Buffer.alloc(size, 'y'))));
    const server = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 120_000 });
    const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /large HTTP/1.1\r\nHost: x\r\n\r\n'));
    let received = 0;
    const firstBytes = new Promise((resolve) => socket.once('data', resolve));
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('error', () => undefined);
    await firstBytes;
    socket.pause();
    const stopped = server.close();
    // The client reads on once the stop has begun.
    await new Promise((resolve) => setImmediate(resolve));
    socket.resume();
    await Promise.all([closed, stopped]);
    assert.ok(received > size, `${received} bytes of a ${size}-byte body`);
  });

  it('stops at once when the only connections are idle or still sending a request head, not after the grace period', { timeout: 30_000 }, async () => {
    const server = await serve(createRequestListener(new Kernel()), { port: 0, gracePeriod: 120_000 });
    let accepted = 0;
    const bothAccepted = new Promise((resolve) => server.server.on('connection', () => ++accepted === 2 && resolve(undefined)));
    const silent = connect(server.port, '127.0.0.1');
    const halfHead = connect(server.port, '127.0.0.1', () => halfHead.write('GET /about HTTP/1.1\r\nHo'));
    const closed = [silent, halfHead].map((socket) => new Promise((resolve) => socket.on('close', resolve)));
    for (const socket of [silent, halfHead]) socket.on('error', () => undefined);
    // Stopped once the server holds both connections: a stop before that would only refuse them.
    await bothAccepted;
    // The grace period is two minutes: the test's own timeout (30 s) fails it if the stop waits for that.
    await server.close();
    await Promise.all(closed);
  });

  it('answers a request once: after an early answer to an upload whose body stalls, the request timeout closes without a 408', { timeout: 30_000 }, async () => {
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => event.setResponse(new Response('not here\n', 404)));
    const server = await serve(createRequestListener(kernel), { port: 0, headersTimeout: 400, requestTimeout: 800 });
    try {
      const received = await exchange(server.port, 'POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab');
      assert.deepEqual(statusLines(received), ['HTTP/1.1 404 Not Found']);
    } finally {
      await server.close();
    }
  });

  it('answers a request once: a body that breaks, or a client that stops sending it, after the answer closes the connection without a 400', async () => {
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => event.setResponse(new Response('not here\n', 404)));
    const server = await serve(createRequestListener(kernel), { port: 0 });
    try {
      let broken = false;
      const afterBrokenChunk = await converse(server.port, 'POST /nope HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n', (received, socket) => {
        if (broken || !received.includes('not here\n')) return;
        broken = true;
        socket.write('zz\r\n');
      });
      assert.deepEqual(statusLines(afterBrokenChunk), ['HTTP/1.1 404 Not Found']);
      let ended = false;
      const afterHalfClose = await converse(server.port, 'POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab', (received, socket) => {
        if (ended || !received.includes('not here\n')) return;
        ended = true;
        socket.end();
      });
      assert.deepEqual(statusLines(afterHalfClose), ['HTTP/1.1 404 Not Found']);
    } finally {
      await server.close();
    }
  });

  it('fails a body read cut off by the request timeout or by the end of a stop as such, not as a client gone', { timeout: 30_000 }, async () => {
    const failures: unknown[] = [];
    const kernel = new Kernel();
    kernel.dispatcher.on('request', async (event) => {
      try {
        await event.request.body();
      } catch (error) {
        failures.push(error);
      }
      event.setResponse(new Response('late\n'));
    });
    const stalled = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab';
    const timed = await serve(createRequestListener(kernel), { port: 0, headersTimeout: 400, requestTimeout: 800 });
    try {
      assert.deepEqual(statusLines(await exchange(timed.port, stalled)), ['HTTP/1.1 408 Request Timeout']);
    } finally {
      await timed.close();
    }
    const stopping = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 200 });
    const reading = new Promise((resolve) => stopping.server.once('request', resolve));
    const received = exchange(stopping.port, stalled);
    // The stop must find the body being read: a stop before the request arrived closes an idle connection.
    await reading;
    await stopping.close();
    await received;
    // The application hears of the cut when node emits the request's close, a turn after the socket's.
    while (failures.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(
      failures.map((error) => [(error as HttpException).status, (error as HttpException).code]),
      [
        [408, 'KEEL_ERR_REQUEST_TIMEOUT'],
        [503, 'KEEL_ERR_SERVER_STOPPING'],
      ],
    );
  });

  it('fails a body read whose chunked framing breaks as a malformed body, not as a client gone, and answers 400', async () => {
    const failures: HttpException[] = [];
    const kernel = new Kernel();
    kernel.dispatcher.on('request', async (event) => {
      await event.request.body().catch((error: HttpException) => failures.push(error));
      event.setResponse(new Response('late\n'));
    });
    const server = await serve(createRequestListener(kernel), { port: 0 });
    try {
      const received = await exchange(server.port, 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\nzz\r\n');
      assert.deepEqual(statusLines(received), ['HTTP/1.1 400 Bad Request']);
      while (failures.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(
        failures.map((error) => [error.status, error.code, error.message]),
        [[400, 'KEEL_ERR_BAD_REQUEST', 'The request body is malformed.']],
      );
    } finally {
      await server.close();
    }
  });
});

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { serve, type RunningServer } from './serve.js';

// Long enough that a stream still open when the stop began is cut by it only if nothing told it to end.
const GRACE_MS = 4_000;

interface Served {
  running: RunningServer;
  /** Per path: the reason request.signal held when the source ended. */
  endedWith: Map<string, string>;
  streamErrors: unknown[];
  /** Resolves once /late's request waits in its listener; releaseLate() lets it return its stream. */
  lateReached: Promise<void>;
  releaseLate: () => void;
}

// Server-sent events that run until request.signal aborts: /returns ends its generator then (a clean end),
// /timer waits the way node's own APIs do and fails with an AbortError, /late starts only after the stop began.
async function serveEndlessStreams(): Promise<Served> {
  const kernel = new Kernel();
  const endedWith = new Map<string, string>();
  const streamErrors: unknown[] = [];
  let releaseLate!: () => void;
  const late = new Promise<void>((resolve) => (releaseLate = resolve));
  let reached!: () => void;
  const lateReached = new Promise<void>((resolve) => (reached = resolve));
  kernel.dispatcher.on('request', async (event) => {
    const { request } = event;
    async function* events() {
      try {
        yield 'data: hello\n\n';
        if (request.pathInfo === '/timer') for (;;) await delay(20, undefined, { signal: request.signal });
        const { signal } = request;
        // A signal asked for once the stop has begun is born aborted.
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      } finally {
        endedWith.set(request.pathInfo, (request.signal.reason as Error | undefined)?.name ?? 'not aborted');
      }
    }
    if (request.pathInfo === '/late') {
      reached();
      await late;
    }
    event.setResponse(new Response(events(), 200, { 'Content-Type': 'text/event-stream' }));
  });
  const handler = createRequestListener(kernel, { onStreamError: (error) => streamErrors.push(error) });
  const running = await serve(handler, { port: 0, gracePeriod: GRACE_MS });
  return { running, endedWith, streamErrors, lateReached, releaseLate };
}

/** Opens a stream: `opened` resolves at its first bytes, `received` with all of them once the server closed it. */
function openStream(port: number, path: string): { opened: Promise<void>; received: Promise<string> } {
  let opened!: () => void;
  const first = new Promise<void>((resolve) => (opened = resolve));
  const received = new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      opened();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  return { opened: first, received };
}

describe('a graceful stop with streamed responses under way', () => {
  it('aborts their request.signal so that their sources end, and their bodies end cleanly', async () => {
    const { running, endedWith, streamErrors } = await serveEndlessStreams();
    const returns = openStream(running.port, '/returns');
    const timer = openStream(running.port, '/timer');
    await Promise.all([returns.opened, timer.opened]);
    const [, returnsReceived, timerReceived] = await Promise.all([running.close(), returns.received, timer.received]);
    // The last chunk of a chunked body: the response ended, it was not cut.
    assert.match(returnsReceived, /data: hello\n\n\r\n0\r\n\r\n$/);
    // A source whose wait fails on the abort ends its body too.
    assert.match(timerReceived, /data: hello\n\n\r\n0\r\n\r\n$/);
    assert.equal(endedWith.get('/returns'), 'ServerStoppingError');
    assert.equal(endedWith.get('/timer'), 'ServerStoppingError');
    // Sources that stopped as asked: no stream failure.
    assert.deepEqual(streamErrors, []);
  });

  it('ends a stream that begins after the stop began', async () => {
    const { running, endedWith, lateReached, releaseLate } = await serveEndlessStreams();
    const late = openStream(running.port, '/late');
    await lateReached;
    const stopped = running.close();
    releaseLate();
    const [, answer] = await Promise.all([stopped, late.received]);
    assert.match(answer, /data: hello\n\n\r\n0\r\n\r\n$/);
    assert.equal(endedWith.get('/late'), 'ServerStoppingError');
  });
});

describe('a graceful stop with a finite streamed body under way', () => {
  it('lets it finish within the grace period, untold to stop: only server-sent events are, as they never end', async () => {
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => {
      const { request } = event;
      async function* rows() {
        yield 'id\n';
        // Waits given the signal, as a source should: a stop must not end this body early.
        for (let i = 1; i <= 5; i++) {
          await delay(60, undefined, { signal: request.signal });
          yield `${i}\n`;
        }
      }
      event.setResponse(new Response(rows(), 200, { 'Content-Type': 'text/csv' }));
    });
    const running = await serve(createRequestListener(kernel), { port: 0, gracePeriod: GRACE_MS });
    const stream = openStream(running.port, '/export.csv');
    await stream.opened;
    const [, received] = await Promise.all([running.close(), stream.received]);
    assert.match(received, /\r\nid\n\r\n(?:[^]*\r\n)?1\n[^]*5\n\r\n0\r\n\r\n$/);
  });
});

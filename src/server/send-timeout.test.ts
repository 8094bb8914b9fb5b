import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener, type RequestListener } from './node-adapter.js';

// A timeout no test outlives, told apart from any other timer by its length.
const SEND_TIMEOUT = 3_600_123;
const CLIENTS = 200;

/** Asks for `path`, waits for the first bytes of the answer, and leaves. */
function leaveAfterFirstBytes(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('the send timeout of responses whose clients leave before their end', () => {
  const kernel = new Kernel();
  // The send-timeout timers still pending: each holds its response, socket, request and stream.
  const pending = new Set<unknown>();
  let made = 0;
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  let listener: RequestListener;
  let server: Server;
  let port = 0;

  before(async () => {
    globalThis.setTimeout = ((callback: () => void, ms?: number, ...args: unknown[]) => {
      const timer = realSetTimeout(callback, ms, ...args);
      if (ms === SEND_TIMEOUT) {
        made++;
        pending.add(timer);
      }
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
      pending.delete(timer);
      realClearTimeout(timer);
    }) as typeof clearTimeout;
    kernel.dispatcher.on('request', (event) => {
      async function* endless(): AsyncGenerator<string> {
        for (;;) {
          yield 'data: tick\n\n';
          await delay(5);
        }
      }
      // Far more than the socket takes at once: the rest waits in node for the client.
      const big = () => new Response(Buffer.alloc(8 * 1024 * 1024, 'x'), 200, { 'Content-Type': 'application/octet-stream' });
      event.setResponse(event.request.pathInfo === '/big' ? big() : new Response(endless(), 200, { 'Content-Type': 'text/event-stream' }));
    });
    listener = createRequestListener(kernel, { sendTimeout: SEND_TIMEOUT });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    for (const timer of pending) realClearTimeout(timer as NodeJS.Timeout);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  for (const path of ['/events', '/big']) {
    it(`keeps no timer for a response its client left (${path}): none waits out the timeout holding it`, { timeout: 60_000 }, async () => {
      made = 0;
      for (let i = 0; i < CLIENTS; i += 20) await Promise.all(Array.from({ length: 20 }, () => leaveAfterFirstBytes(port, path)));
      // The server has seen every client leave once no connection is left open; a stream is over once settled.
      while ((await new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))) > 0) await delay(10);
      await listener.settle();
      await new Promise(setImmediate);
      assert.equal(made, CLIENTS);
      assert.equal(pending.size, 0);
    });
  }
});

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { HttpException } from '../http/http-exception.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { serve } from './serve.js';

describe('a client that goes away while sending its body', () => {
  it('fails the body read as a client gone, not as a malformed body', async () => {
    const failures: HttpException[] = [];
    const kernel = new Kernel();
    let reading!: () => void;
    const bodyRead = new Promise<void>((resolve) => (reading = resolve));
    kernel.dispatcher.on('request', async (event) => {
      const body = event.request.body();
      reading();
      await body.catch((error: HttpException) => failures.push(error));
      event.setResponse(new Response('late\n'));
    });
    const running = await serve(createRequestListener(kernel), { port: 0 });
    try {
      const socket = connect(running.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab');
      await bodyRead;
      socket.destroy();
      // The application hears of it when node emits the request's close, after the socket's.
      while (failures.length === 0) await delay(10);
      assert.deepEqual(
        failures.map((error) => [error.status, error.code, error.message]),
        [[400, 'KEEL_ERR_CLIENT_GONE', 'The client closed the connection before the whole body arrived.']],
      );
    } finally {
      await running.close();
    }
  });

  it('fails a read begun after the client left as a client gone, though the whole body had arrived', async () => {
    const failures: HttpException[] = [];
    const kernel = new Kernel();
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    kernel.dispatcher.on('request', async (event) => {
      started();
      // The controller reads the body only once the client is gone (behind a proxy that buffered it).
      const signal = event.request.signal!;
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await event.request.body().catch((error: HttpException) => failures.push(error));
      event.setResponse(new Response('late\n'));
    });
    const running = await serve(createRequestListener(kernel), { port: 0 });
    try {
      const socket = connect(running.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello');
      await handling;
      socket.destroy();
      while (failures.length === 0) await delay(10);
      assert.deepEqual(
        failures.map((error) => [error.status, error.code, error.message]),
        [[400, 'KEEL_ERR_CLIENT_GONE', 'The client closed the connection before its body was read.']],
      );
    } finally {
      await running.close();
    }
  });
});

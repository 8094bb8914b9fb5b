import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import type { HttpException } from '../http/http-exception.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { serve } from './serve.js';

describe('a connection the server answers and closes itself (a 408)', () => {
  it('is closed on the server side too when the client keeps its own half open, and the stalled body read fails', { timeout: 30_000 }, async () => {
    const failures: HttpException[] = [];
    const kernel = new Kernel();
    kernel.dispatcher.on('request', async (event) => {
      await event.request.body().catch((error: HttpException) => failures.push(error));
      event.setResponse(new Response('late\n'));
    });
    const running = await serve(createRequestListener(kernel), { port: 0, headersTimeout: 400, requestTimeout: 800 });
    try {
      // A client that never closes its side: the server's end() alone left the socket, and the request, open.
      const socket = connect({ port: running.port, host: '127.0.0.1', allowHalfOpen: true });
      socket.on('error', () => undefined);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab');
      // The server's side is gone when the stop finds nothing to wait for: close() waits for open connections.
      await new Promise<void>((resolve) => socket.once('end', resolve));
      assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      while (failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(
        failures.map((error) => [error.status, error.code]),
        [[408, 'KEEL_ERR_REQUEST_TIMEOUT']],
      );
      socket.destroy();
    } finally {
      await running.close();
    }
  });
});

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exchange, statusLines } from '../../test/helpers/raw-http.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { servePages } from './page-server.fixture.js';
import { MAX_PIPELINED } from './pipeline-depth.js';
import { serve, type RunningServer } from './serve.js';

describe('pipelined requests', () => {
  let running: RunningServer;

  before(async () => {
    running = await servePages();
  });
  after(() => running.close());

  it('answers at most MAX_PIPELINED requests pipelined at once, refuses the next with 429 and closes, leaving the rest unread', async () => {
    const received = await exchange(running.port, 'GET /again HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_PIPELINED + 50));
    const statuses = statusLines(received);
    assert.equal(statuses.length, MAX_PIPELINED + 1);
    assert.deepEqual(new Set(statuses.slice(0, MAX_PIPELINED)), new Set(['HTTP/1.1 200 OK']));
    assert.equal(statuses.at(-1), 'HTTP/1.1 429 Too Many Requests');
    assert.match(received, /\r\nConnection: close\r\n/);
  });

  it('serves again on a connection whose pipelined requests have been answered', async () => {
    const socket = connect(running.port, '127.0.0.1');
    socket.setEncoding('latin1');
    let received = '';
    socket.on('data', (chunk: string) => (received += chunk));
    const batch = 'GET /again HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(MAX_PIPELINED);
    for (let round = 1; round <= 2; round++) {
      socket.write(batch);
      while (statusLines(received).length < round * MAX_PIPELINED) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    socket.end('GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => socket.on('close', resolve));
    assert.deepEqual(new Set(statusLines(received)), new Set(['HTTP/1.1 200 OK']));
    assert.equal(statusLines(received).length, 2 * MAX_PIPELINED + 1);
  });

  it('answers, at a stop, every request pipelined before it and already run, the connection closing after the last', { timeout: 30_000 }, async () => {
    const ran: string[] = [];
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => {
      const ms = Number(event.request.pathInfo.slice(1));
      return new Promise((resolve) => setTimeout(resolve, ms)).then(() => {
        ran.push(event.request.pathInfo);
        event.setResponse(new Response(`slept ${ms}\n`));
      });
    });
    const server = await serve(createRequestListener(kernel), { port: 0, gracePeriod: 20_000 });
    const received = exchange(server.port, 'GET /600 HTTP/1.1\r\nHost: x\r\n\r\nPOST /50 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    while (!ran.includes('/50')) await new Promise((resolve) => setTimeout(resolve, 10));
    await server.close();
    const answer = await received;
    assert.deepEqual(statusLines(answer), ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    assert.match(answer, /slept 600\n[^]*slept 50\n$/);
  });
});

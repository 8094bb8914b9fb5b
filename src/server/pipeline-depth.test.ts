import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exchange, statusLines } from '../../test/helpers/raw-http.js';
import { servePages } from './page-server.fixture.js';
import { MAX_PIPELINED } from './pipeline-depth.js';
import type { RunningServer } from './serve.js';

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
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exchange, statusLines } from '../../test/helpers/raw-http.js';
import { servePages } from './page-server.fixture.js';
import type { RunningServer } from './serve.js';

describe('requests node parses but the server refuses', () => {
  let running: RunningServer;

  before(async () => {
    running = await servePages();
  });
  after(() => running.close());

  it('answers an HTTP/1.1 request without Host, and an expectation it cannot meet, in plain text as its other refusals, and closes', async () => {
    for (const [request, status] of [
      ['GET /first HTTP/1.1\r\n\r\n', '400 Bad Request'],
      ['POST /first HTTP/1.1\r\nHost: x\r\nExpect: something\r\nContent-Length: 2\r\n\r\nab', '417 Expectation Failed'],
    ] as const) {
      const received = await exchange(running.port, request);
      assert.deepEqual(statusLines(received), [`HTTP/1.1 ${status}`]);
      assert.match(received, /\r\nContent-Type: text\/plain; charset=UTF-8\r\n/);
      assert.match(received, /\r\nConnection: close\r\n/);
      assert.ok(received.endsWith(`\r\n\r\n${status}\n`), received);
    }
    // HTTP/1.0 needs no Host: the server's own name stands in for it.
    assert.match(await exchange(running.port, 'GET /first HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 OK\r\n[^]*page \/first\n$/);
  });

  it('refuses a transfer coding other than chunked alone, which it could not decode, with 400', async () => {
    for (const coding of ['foo, chunked', 'gzip, chunked', 'gzip,chunked']) {
      const received = await exchange(running.port, `POST /first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${coding}\r\n\r\n5\r\nhello\r\n0\r\n\r\n`);
      assert.deepEqual(statusLines(received), ['HTTP/1.1 400 Bad Request'], coding);
    }
    for (const coding of ['chunked', 'Chunked', ' chunked ']) {
      const received = await exchange(running.port, `POST /first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${coding}\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n`);
      assert.deepEqual(statusLines(received), ['HTTP/1.1 200 OK'], coding);
    }
  });

  it('refuses a request line of HTTP/0.9 (or of no version) or HTTP/2.0 as it refuses HTTP/1.2, with 400', async () => {
    for (const line of ['GET /first HTTP/2.0', 'GET /first HTTP/0.9', 'GET /first', 'GET /first HTTP/1.2']) {
      const received = await exchange(running.port, `${line}\r\nHost: x\r\n\r\n`);
      assert.deepEqual(statusLines(received), ['HTTP/1.1 400 Bad Request'], line);
      assert.ok(received.endsWith('\r\n\r\n400 Bad Request\n'), received);
    }
  });

  it('refuses an HTTP/1.0 request with Transfer-Encoding, whose framing RFC 9112 calls faulty, with 400, and reads nothing after it', async () => {
    const received = await exchange(running.port, 'POST /first HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\nGET /second HTTP/1.0\r\n\r\n');
    assert.deepEqual(statusLines(received), ['HTTP/1.1 400 Bad Request']);
    assert.match(received, /\r\nConnection: close\r\n/);
  });
});

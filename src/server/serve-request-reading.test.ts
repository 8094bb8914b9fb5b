import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { converse, exchange, statusLines } from '../../test/helpers/raw-http.js';
import { HeaderNameSet } from '../http/header-lines.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener } from './node-adapter.js';
import { serve, type RunningServer } from './serve.js';

describe('serve, reading a request', () => {
  it('hands every header line to the application, past node\'s default of 2000', async () => {
    const kernel = new Kernel();
    kernel.dispatcher.on('request', (event) => event.setResponse(new Response(`${event.request.headerLines(new HeaderNameSet(['host'])).length / 2} host lines\n`)));
    const server = await serve(createRequestListener(kernel), { port: 0 });
    try {
      const filler = Array.from({ length: 2100 }, (_, i) => `X${i}: y\r\n`).join('');
      const received = await exchange(server.port, `GET / HTTP/1.1\r\nHost: a\r\n${filler}Host: b\r\nConnection: close\r\n\r\n`);
      assert.match(received, /2 host lines\n$/);
    } finally {
      await server.close();
    }
  });

  describe('Expect: 100-continue', () => {
    let uploads: RunningServer;
    before(async () => {
      const kernel = new Kernel();
      kernel.dispatcher.on('request', async (event) => {
        if (event.request.pathInfo !== '/upload') return event.setResponse(new Response('missing\n', 404));
        const body = await event.request.body();
        event.setResponse(new Response(`got ${body.length}\n`));
      });
      uploads = await serve(createRequestListener(kernel), { port: 0 });
    });
    after(() => uploads.close());

    it('sends 100 Continue when the application reads the body, then its answer', async () => {
      const head = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n';
      const received = await converse(uploads.port, head, (sofar, socket) => {
        if (sofar === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write('hello');
        if (sofar.endsWith('got 5\n')) socket.end();
      });
      assert.deepEqual(statusLines(received), ['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    });

    it('answers a request refused before its body is read at once, without asking for the body, and ends the connection', async () => {
      const received = await exchange(uploads.port, 'POST /elsewhere HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n');
      assert.deepEqual(statusLines(received), ['HTTP/1.1 404 Not Found']);
      assert.match(received, /\r\nConnection: close\r\n/);
    });
  });
});

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { exchange } from '../../test/helpers/raw-http.js';
import { Response } from '../http/response.js';
import type { Listener } from '../kernel/event-dispatcher.js';
import type { RequestEvent } from '../kernel/events.js';
import { Kernel } from '../kernel/kernel.js';
import { createRequestListener, type NodeAdapterOptions } from './node-adapter.js';

// A kernel whose request fails outside the pipeline: `fail` sets what the request event does.
function failingKernel(
  fail: Listener<RequestEvent> = () => {
    throw new Error('failed outside the pipeline');
  },
): Kernel {
  const kernel = new Kernel();
  kernel.dispatcher.on('request', fail);
  return kernel;
}

// What a client reads from a server of that listener for `GET /`, head and body.
async function answerOf(kernel: Kernel, options: NodeAdapterOptions): Promise<string> {
  const server = createServer(createRequestListener(kernel, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await exchange((server.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('createRequestListener with a report that throws', () => {
  // An application's logger whose sink fails: the throw went up node's `request` event and ended the process.
  it('still answers the failure, and the process goes on', async () => {
    const raw = await answerOf(failingKernel(), {
      onFatal: () => {
        throw new Error('log sink down');
      },
    });
    assert.ok(raw.startsWith('HTTP/1.1 500 Internal Server Error\r\n'), raw);
    assert.ok(raw.endsWith('\r\n\r\nInternal Server Error\n'));
  });
});

describe('createRequestListener with a failure page', () => {
  // Symfony's ErrorHandler answers with the status of the exception it renders; a success is never one.
  for (const [status, line] of [[401, '401 Unauthorized'], [200, '500 Internal Server Error'], [undefined, '500 Internal Server Error']] as const) {
    it(`answers the page's error status, else 500 (page at ${status})`, async () => {
      const raw = await answerOf(failingKernel(), { failurePage: () => ({ status, headers: [['Content-Type', 'text/html']], body: '<p>the page</p>' }) });
      assert.ok(raw.startsWith(`HTTP/1.1 ${line}\r\n`), raw);
      assert.ok(raw.endsWith('\r\n\r\n<p>the page</p>'));
    });
  }

  it('answers the plain 500 whole when the page cannot be written either, its body framed by its own length', async () => {
    const kernel = failingKernel((event) => event.setResponse(new Response('never sent', 200, { 'X Bad:': 'value' })));
    // The debug page of that failure would carry the same bad header, so its head fails as well.
    const page = `<html>${'x'.repeat(5000)}</html>`;
    const raw = await answerOf(kernel, { failurePage: () => ({ headers: [['X Bad:', 'value']], body: page }) });
    const [head, body] = raw.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
    assert.match(head!, /\r\nContent-Length: 22(?:\r\n|$)/);
    assert.equal(body, 'Internal Server Error\n');
  });
});

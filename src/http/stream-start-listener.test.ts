import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { Kernel } from '../kernel/kernel.js';
import { ResponseEvent } from '../kernel/events.js';
import { discardStreamedBody } from './body-stream.js';
import { Request } from './request.js';
import { Response } from './response.js';
import { StreamStartListener } from './stream-start-listener.js';

const listener = new StreamStartListener();
const kernel = new Kernel();

function responseEvent(response: Response, type: 'main' | 'sub' = 'main', request = new Request({ method: 'GET', target: '/export' })): ResponseEvent {
  return new ResponseEvent(kernel, request, type, response);
}

async function collect(body: unknown): Promise<string> {
  let text = '';
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  return text;
}

describe('StreamStartListener', () => {
  it('leaves alone what is no stream, the streams of sub-requests and server-sent events', () => {
    assert.equal(listener.onResponse(responseEvent(new Response('page'))), undefined);
    async function* events(): AsyncGenerator<string> {
      yield 'data: hello\n\n';
    }
    const sse = new Response(events(), 200, { 'Content-Type': 'text/event-stream; charset=UTF-8' });
    const body = sse.body;
    assert.equal(listener.onResponse(responseEvent(sse)), undefined);
    assert.equal(sse.body, body);
    const sub = new Response(events(), 200, { 'Content-Type': 'text/plain' });
    assert.equal(listener.onResponse(responseEvent(sub, 'sub')), undefined);
  });

  it('keeps a node stream, its first chunk put back in front of the rest', async () => {
    const source = Readable.from(['one ', 'two ', 'three']);
    const response = new Response(source);
    await listener.onResponse(responseEvent(response));
    assert.equal(response.body, source);
    assert.equal(await collect(response.body), 'one two three');
  });

  it("gives a generator's first chunk first, then the rest", async () => {
    async function* rows(): AsyncGenerator<string> {
      yield 'a,';
      yield 'b,';
      yield 'c';
    }
    const response = new Response(rows());
    await listener.onResponse(responseEvent(response));
    assert.equal(await collect(response.body), 'a,b,c');
  });

  it('rejects with the error of a source that fails before its first chunk, having let go of it', async () => {
    const source = new Readable({ read: () => source.destroy(new Error('disk gone')) });
    await assert.rejects(listener.onResponse(responseEvent(new Response(source)))!, /disk gone/);
    assert.equal(source.destroyed, true);
  });

  // The response may still be replaced after this listener (a later listener fails): letting go of the
  // started body must reach the source, whose cleanup would otherwise never run.
  it('lets a generator finish its cleanup when the started body is discarded unread', async () => {
    let cleaned = false;
    async function* rows(): AsyncGenerator<string> {
      try {
        yield 'first';
        yield 'second';
      } finally {
        cleaned = true;
      }
    }
    const response = new Response(rows());
    await listener.onResponse(responseEvent(response));
    discardStreamedBody(response);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cleaned, true);
  });

  it('leaves an empty body, and the source let go of, when the client has gone before the first chunk', async () => {
    const controller = new AbortController();
    const request = new Request({ method: 'GET', target: '/export', signal: controller.signal });
    const source = new Readable({ read: () => undefined });
    const response = new Response(source);
    const waiting = listener.onResponse(responseEvent(response, 'main', request));
    controller.abort(new Error('client gone'));
    await waiting;
    assert.equal(response.body, '');
    assert.equal(source.destroyed, true);
  });
});

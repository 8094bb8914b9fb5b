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

  it('puts the first chunk of a stream with an encoding back in that encoding', async () => {
    for (const [encoding, expected] of [['hex', '41424344c3a9'], ['latin1', 'ABCD\u00c3\u00a9'], ['base64', 'QUJDRMOp']] as const) {
      const source = Readable.from([Buffer.from('ABCDé')], { objectMode: false }).setEncoding(encoding);
      const response = new Response(source);
      await listener.onResponse(responseEvent(response));
      assert.equal(await collect(response.body), expected, encoding);
    }
  });

  it('leaves alone a node stream that already has a reader of its own, which would get the first chunk twice', async () => {
    const source = Readable.from(['one ', 'two']);
    let counted = '';
    source.on('data', (chunk: string) => (counted += chunk));
    const response = new Response(source);
    assert.equal(listener.onResponse(responseEvent(response)), undefined);
    await new Promise((resolve) => source.on('end', resolve));
    assert.equal(counted, 'one two');
  });

  it('leaves alone error answers: an exception listener whose stream fails would be sent unfiltered, its failure hidden', () => {
    async function* rows(): AsyncGenerator<string> {
      yield 'a';
    }
    for (const status of [302, 404, 500]) assert.equal(listener.onResponse(responseEvent(new Response(rows(), status))), undefined, String(status));
  });

  // A cursor-like iterable: each iterator is a query of its own, released by return().
  function cursor(log: string[], rows: () => Promise<IteratorResult<string>>): AsyncIterable<string> {
    let opened = 0;
    return {
      [Symbol.asyncIterator]: () => {
        const id = ++opened;
        log.push(`open ${id}`);
        return {
          next: rows,
          return: async () => {
            log.push(`release ${id}`);
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  it('opens an iterable once, and releases that one iterator when the client leaves before its first row', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const request = new Request({ method: 'GET', target: '/export', signal: controller.signal });
    const response = new Response(cursor(log, () => new Promise(() => undefined)));
    const waiting = listener.onResponse(responseEvent(response, 'main', request));
    controller.abort(new Error('client gone'));
    await waiting;
    assert.equal(response.body, '');
    assert.deepEqual(log, ['open 1', 'release 1']);
  });

  it('opens an iterable once when its first row fails, and leaves nothing for the kernel to discard again', async () => {
    const log: string[] = [];
    const response = new Response(cursor(log, () => Promise.reject(new Error('query failed'))));
    await assert.rejects(listener.onResponse(responseEvent(response))!, /query failed/);
    discardStreamedBody(response);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['open 1', 'release 1']);
    assert.equal(response.body, '');
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

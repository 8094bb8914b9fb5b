import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { MethodNotAllowedHttpException, NotFoundHttpException } from '../http/http-exception.js';
import { createFlatError } from './flat-error.js';
import { errorFrames, parseStack } from './stack-frame.js';

const THIS_FILE = fileURLToPath(import.meta.url);

class ResourceNotFoundException extends Error {}

describe('createFlatError', () => {
  it('takes status, code and headers from an HttpException', () => {
    const flat = createFlatError(new MethodNotAllowedHttpException(['GET', 'POST'], 'nope'));
    assert.equal(flat.class, 'MethodNotAllowedHttpException');
    assert.equal(flat.message, 'nope');
    assert.equal(flat.status, 405);
    assert.equal(flat.statusText, 'Method Not Allowed');
    assert.equal(flat.code, 'KEEL_ERR_ROUTE_METHOD_NOT_ALLOWED');
    assert.deepEqual(flat.headers, { Allow: 'GET, POST' });
  });

  it('reports a thrown value whose constructor or cause getter throws, or a Proxy whose traps throw, instead of failing', () => {
    const thrower = () => {
      throw new Error('getter');
    };
    const noConstructor = Object.defineProperty({}, 'constructor', { get: thrower });
    const noCause = Object.defineProperty(new Error('the original'), 'cause', { get: thrower });
    const proxy = new Proxy({}, { getPrototypeOf: thrower });
    assert.equal(createFlatError(noConstructor, { debug: true }).class, 'Object');
    const flat = createFlatError(noCause, { debug: true });
    assert.deepEqual([flat.class, flat.message, flat.status, flat.previous], ['Error', 'the original', 500, undefined]);
    assert.equal(createFlatError(proxy, { debug: true }).status, 500);
  });

  it('reports a thrown Proxy whose every trap throws, its get trap included', () => {
    const traps = ['get', 'getPrototypeOf', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'isExtensible', 'defineProperty'];
    const hostile = new Proxy({}, Object.fromEntries(traps.map((trap) => [trap, () => { throw new Error(trap); }])));
    const flat = createFlatError(hostile, { debug: true });
    assert.deepEqual([flat.class, flat.message, flat.status, flat.file, flat.previous], ['Object', '[object Object]', 500, '', undefined]);
  });

  it('answers 500 for any other error, or the status it is told to use', () => {
    assert.equal(createFlatError(new TypeError('x')).status, 500);
    assert.equal(createFlatError(new TypeError('x')).class, 'TypeError');
    assert.equal(createFlatError(new TypeError('x'), { statusCode: 418 }).statusText, "I'm a teapot");
  });

  it("gives a code the reference's table lacks FlattenException's text, not the status line's `unknown status`", () => {
    for (const status of [419, 499, 509, 599]) assert.equal(createFlatError(new TypeError('x'), { statusCode: status }).statusText, 'Whoops, looks like something went wrong.');
  });

  it('records where the error was created: this file and the line of `new`', () => {
    const line = new Error().stack!.split('\n')[1]!.match(/:(\d+):\d+\)?$/)![1];
    const flat = createFlatError(new Error('here'));
    assert.equal(flat.file, THIS_FILE);
    assert.equal(flat.line, Number(line) + 1);
  });

  it('follows the cause chain, outermost first', () => {
    const inner = new ResourceNotFoundException('No routes found for "/robots.txt/".');
    const outer = new NotFoundHttpException('No route found for "GET http://localhost/robots.txt"', { cause: inner });
    const chain = createFlatError(outer, { debug: true }).toArray();
    assert.deepEqual(chain.map((e) => e.class), ['NotFoundHttpException', 'ResourceNotFoundException']);
    assert.equal(chain[1]!.message, 'No routes found for "/robots.txt/".');
    assert.equal(chain[1]!.status, 500);
  });

  it('flattens the cause only when it is asked for, once', () => {
    let reads = 0;
    const inner = new Error('inner');
    Object.defineProperty(inner, 'message', { get: () => `inner ${++reads}` });
    const flat = createFlatError(new Error('outer', { cause: inner }));
    assert.equal(reads, 0);
    assert.equal(flat.previous?.message, 'inner 1');
    assert.equal(flat.previous?.message, 'inner 1');
    assert.equal(reads, 1);
  });

  it('stops on a cyclic cause chain', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    assert.deepEqual(createFlatError(a).toArray().map((e) => e.message), ['a', 'b']);
  });

  // A chain is user data and is cut at 16 errors: what was left out is counted, a cycle counted once.
  it('counts the causes it leaves out past its limit, on the last error it keeps', () => {
    let error: Error = new Error('e0');
    for (let i = 1; i < 20; i++) error = new Error(`e${i}`, { cause: error });
    const chain = createFlatError(error).toArray();
    assert.equal(chain.length, 16);
    assert.deepEqual(chain.map((flat) => flat.omittedCauses), [...Array(15).fill(0), 4]);
    const loop = new Error('loop');
    let looped: Error = loop;
    for (let i = 0; i < 20; i++) looped = new Error(`l${i}`, { cause: looped });
    Object.defineProperty(loop, 'cause', { value: looped });
    assert.equal(createFlatError(looped).toArray().at(-1)!.omittedCauses, 5);
  });

  // Promise.any(), or a connection refused on each address of a host: the aggregate's own message says nothing.
  it("follows an AggregateError's cause, then each error it aggregates with its own causes, each once", () => {
    const shared = new Error('shared');
    const aggregate = new AggregateError(
      [new Error('first', { cause: new Error('why first') }), shared, new TypeError('second', { cause: shared })],
      'All promises were rejected',
      { cause: new Error('its cause') },
    );
    const flat = createFlatError(new Error('outer', { cause: aggregate }), { debug: true });
    assert.deepEqual(flat.toArray().map((e) => `${e.class}: ${e.message}`), [
      'Error: outer', 'AggregateError: All promises were rejected', 'Error: its cause', 'Error: first', 'Error: why first', 'Error: shared', 'TypeError: second',
    ]);
  });

  it('counts the aggregated errors it leaves out past its limit', () => {
    const aggregate = new AggregateError(Array.from({ length: 30 }, (_, i) => new Error(`e${i}`)), 'many');
    const chain = createFlatError(aggregate).toArray();
    assert.equal(chain.length, 16);
    assert.equal(chain.at(-1)!.message, 'e14');
    assert.equal(chain.at(-1)!.omittedCauses, 15);
  });

  it('keeps the whole trace in debug only', () => {
    const error = new Error('x');
    assert.ok(createFlatError(error, { debug: true }).trace.length > 1);
    assert.equal(createFlatError(error).trace.length, 1);
  });

  it('describes thrown values that are not errors', () => {
    assert.deepEqual([createFlatError('plain').class, createFlatError('plain').message], ['Error', 'plain']);
    assert.deepEqual([createFlatError(42).class, createFlatError(42).message], ['Error', '42']);
    assert.deepEqual([createFlatError(undefined).message, createFlatError(null).message], ['undefined', 'null']);
    assert.deepEqual([createFlatError({ a: 1 }).class, createFlatError({ a: 1 }).message], ['Object', '{"a":1}']);
    const flat = createFlatError(Object.create(null));
    assert.equal(flat.file, '');
    assert.equal(flat.line, 0);
  });

  it('survives an error whose stack getter throws', () => {
    const error = new Error('broken');
    Object.defineProperty(error, 'stack', { get: () => { throw new Error('no'); } });
    assert.equal(createFlatError(error).file, '');
  });

  it('survives an error whose message getter throws', () => {
    const error = new Error('m');
    Object.defineProperty(error, 'message', { get: () => { throw new Error('no'); } });
    assert.equal(createFlatError(error).message, '[object Error]');
  });

  it('serialises to JSON', () => {
    const json = JSON.parse(JSON.stringify(createFlatError(new NotFoundHttpException('x'))));
    assert.equal(json.class, 'NotFoundHttpException');
    assert.equal(json.status, 404);
  });
});

describe('parseStack', () => {
  it('reads named, anonymous, async, file-URL and node-internal frames', () => {
    const frames = parseStack([
      'Error: x',
      '    at Kernel.handle (/app/src/kernel/kernel.ts:42:7)',
      '    at async Promise.all (index 0)',
      '    at async RouterListener.onRequest (/app/src/routing/router-listener.ts:10:5)',
      '    at /app/src/main.ts:3:1',
      '    at file:///app/src/url%20space.ts:9:2',
      '    at Module._compile (node:internal/modules/cjs/loader:1521:14)',
      '    at render (/app/node_modules/preact/dist/index.js:1:100)',
      '    at <anonymous> (/app/src/x.ts:5:13)',
    ].join('\n'));
    assert.deepEqual(frames.map((f) => [f.function, f.file, f.line, f.column, f.inApp]), [
      ['Kernel.handle', '/app/src/kernel/kernel.ts', 42, 7, true],
      ['RouterListener.onRequest', '/app/src/routing/router-listener.ts', 10, 5, true],
      ['', '/app/src/main.ts', 3, 1, true],
      ['', '/app/src/url space.ts', 9, 2, true],
      ['Module._compile', 'node:internal/modules/cjs/loader', 1521, 14, false],
      ['render', '/app/node_modules/preact/dist/index.js', 1, 100, false],
      ['', '/app/src/x.ts', 5, 13, true],
    ]);
  });

  it('returns no frames for a missing stack', () => {
    assert.deepEqual(parseStack(undefined), []);
  });

  it('stops after `limit` frames, skipping lines that are no frame', () => {
    const stack = ['Error: x', '    at async Promise.all (index 0)', '    at first (/app/a.ts:1:1)', '    at second (/app/b.ts:2:2)'].join('\n');
    assert.deepEqual(parseStack(stack, 1).map((f) => f.function), ['first']);
  });

  it('never reads a line of a many-line message as a frame', () => {
    const stack = ['Error: x', '    at fake (/app/.env:10:1)', 'more', '    at real (/app/src/a.ts:1:1)'].join('\n');
    assert.deepEqual(parseStack(stack).map((f) => f.function), ['real']);
  });
});

describe('errorFrames', () => {
  it('reads only what follows the header, even when the message ends with lines that read like frames', () => {
    const error = new Error('Panel "\n    at x (/app/.env:10:1)\n" is not available');
    const frames = errorFrames(error);
    assert.ok(frames.length > 0);
    assert.ok(frames.every((f) => !f.file.endsWith('.env')), JSON.stringify(frames.map((f) => f.file)));
    assert.equal(frames[0]!.file, fileURLToPath(import.meta.url));
    const spoofedTail = new Error('x\n    at x (/app/.env:10:1)');
    assert.equal(errorFrames(spoofedTail, 1)[0]!.file, fileURLToPath(import.meta.url));
  });

  it('falls back to the trailing frame lines of a stack written by hand', () => {
    const error = new Error('x');
    error.stack = 'Something else\n    at fake (/app/.env:1:1)\nnot a frame\n    at real (/app/src/a.ts:2:3)';
    assert.deepEqual(errorFrames(error).map((f) => [f.function, f.line]), [['real', 2]]);
  });

  it('gives no frames for a stack that is only its header, or a getter that throws', () => {
    const bare = new Error('x');
    bare.stack = 'Error: x';
    assert.deepEqual(errorFrames(bare), []);
    const broken = new Error('x');
    Object.defineProperty(broken, 'stack', { get: () => { throw new Error('no'); } });
    assert.deepEqual(errorFrames(broken), []);
  });
});

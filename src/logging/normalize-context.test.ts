import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeContext } from './normalize-context.js';

// Expected values are what Monolog 2.9's LineFormatter makes of the PHP counterpart of each context.
describe('normalizeContext', () => {
  it('cuts at the depth Monolog does, counting the record as level 0 and its context as level 1', () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'leaf' : { d: nest(levels - 1) });
    assert.deepEqual(normalizeContext({ x: nest(7) }), { x: nest(7) });
    const cut = normalizeContext({ x: nest(8) });
    assert.equal(JSON.stringify(cut), `{"x":${'{"d":'.repeat(8)}"Over 9 levels deep, aborting normalization"${'}'.repeat(8)}}`);
  });

  it('counts an error\'s causes from the error\'s own depth, with the literal "\\n" Monolog writes before the cut', () => {
    let error = new Error('e0');
    for (let i = 1; i <= 12; i++) error = new Error(`e${i}`, { cause: error });
    const text = normalizeContext({ exception: error }).exception as string;
    const parts = text.split('\n[previous exception] ');
    assert.deepEqual(parts.map((part) => /: (e\d+) at /.exec(part)?.[1]), ['e12', 'e11', 'e10', 'e9', 'e8', 'e7', 'e6', 'e5']);
    assert.ok(text.endsWith(')\\n[previous exception] Over 9 levels deep, aborting normalization'));
  });

  it('writes the errors an AggregateError aggregates after its cause, as previous exceptions', () => {
    const error = new AggregateError([new Error('refused on ::1'), new Error('refused on 127.0.0.1')], '', { cause: new Error('its cause') });
    const text = normalizeContext({ exception: error }).exception as string;
    const parts = text.split('\n[previous exception] ');
    assert.deepEqual(parts.map((part) => /^\[object\] \((\w+)\(code: 0\): (.*) at /.exec(part)?.slice(1, 3).join(': ')), [
      'AggregateError: ', 'Error: its cause', 'Error: refused on ::1', 'Error: refused on 127.0.0.1',
    ]);
  });

  it('writes an error whose constructor or code getter throws instead of failing the context', () => {
    const thrower = () => {
      throw new Error('getter');
    };
    const error = Object.defineProperties(new Error('hostile'), { constructor: { get: thrower }, code: { get: thrower } });
    assert.match(normalizeContext({ exception: error }).exception as string, /^\[object\] \(Error\(code: 0\): hostile at \/.*normalize-context\.test\.ts:\d+\)$/);
  });

  it('writes a cause that is no error, one without prototype included, as its JSON', () => {
    const error = new Error('payment failed', { cause: Object.assign(Object.create(null) as object, { field: 'card' }) });
    const text = normalizeContext({ exception: error }).exception as string;
    assert.match(text, /\n\[previous exception\] \[object\] \(object\(code: 0\): \{"field":"card"\} at :0\)$/);
  });

  it('keeps the first 1000 items, says how many there were, and writes a list cut short as an object', () => {
    const list = normalizeContext({ x: Array.from({ length: 1001 }, (_, i) => i) }).x as Record<string, unknown>;
    assert.equal(Array.isArray(list), false);
    assert.deepEqual(Object.keys(list).slice(-2), ['999', '...']);
    assert.equal(list['...'], 'Over 1000 items (1001 total), aborting normalization');
    const map = normalizeContext(Object.fromEntries(Array.from({ length: 1002 }, (_, i) => [`k${i}`, i])));
    assert.equal(Object.keys(map).length, 1001);
    assert.equal(map['...'], 'Over 1000 items (1002 total), aborting normalization');
    assert.equal((normalizeContext({ x: Array.from({ length: 1000 }, () => 0) }).x as unknown[]).length, 1000);
  });

  it('writes a date to the second with +00:00, as NormalizerFormatter\'s Y-m-d\\TH:i:sP', () => {
    assert.deepEqual(normalizeContext({ at: new Date(Date.UTC(2026, 10, 22, 10, 52, 3, 253)) }), { at: '2026-11-22T10:52:03+00:00' });
  });

  it('writes a member named __proto__ (a JSON body logged as it came) as a member, not as the prototype', () => {
    const body = JSON.parse('{"a":1,"__proto__":{"x":"y"}}') as unknown;
    assert.equal(JSON.stringify(normalizeContext({ body })), '{"body":{"a":1,"__proto__":{"x":"y"}}}');
  });

  it('writes NaN and infinities as the strings Monolog writes', () => {
    assert.deepEqual(normalizeContext({ n: [Number.NaN, Infinity, -Infinity] }), { n: ['NaN', 'INF', '-INF'] });
  });

  it('writes an object as PHP writes the array it would be: [] when empty, a list when keyed 0, 1, 2 …', () => {
    class Nothing {}
    const context = { o: {}, m: new Map(), n: new Nothing(), l: { 0: 'a', 1: 'b' }, k: { 1: 'a', 2: 'b' }, s: { 0: 'a', x: 'b' } };
    assert.equal(JSON.stringify(normalizeContext(context)), '{"o":[],"m":[],"n":{"Nothing":[]},"l":["a","b"],"k":{"1":"a","2":"b"},"s":{"0":"a","x":"b"}}');
    assert.equal(JSON.stringify(normalizeContext({ 0: 'a', 1: 'b' })), '["a","b"]');
  });

  it('writes a cycle once, as [circular], however many references make it', () => {
    const node: Record<string, unknown> = { name: 'root' };
    for (let i = 0; i < 8; i++) node[`p${i}`] = node;
    const json = JSON.stringify(normalizeContext({ node }));
    assert.equal(json, `{"node":{"name":"root",${Array.from({ length: 8 }, (_, i) => `"p${i}":"[circular]"`).join(',')}}}`);
  });

  // Shared, not cyclic: ten levels of eight references to the next level are 8⁹ paths.
  it('stops after so many values, when shared objects would be written once per path', () => {
    let level: Record<string, unknown> = { leaf: true };
    for (let depth = 0; depth < 10; depth++) level = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, level]));
    const json = JSON.stringify(normalizeContext({ level }));
    assert.ok(json.length < 2_000_000, `${json.length} characters`);
    assert.match(json, /Over 10000 values, aborting normalization/);
  });

  it('writes what an object says it stands for: its toJSON(), its own toString(), a Set its values', () => {
    const context = { url: new URL('https://api.example.test/v1/items?page=2'), ids: new Set([1, 2, 3]), date: new Date(0), broken: { toJSON: () => { throw new Error('no'); } } };
    assert.deepEqual(normalizeContext(context), {
      url: { URL: 'https://api.example.test/v1/items?page=2' },
      ids: { Set: [1, 2, 3] },
      date: '1970-01-01T00:00:00+00:00',
      broken: { toJSON: '[function toJSON]' },
    });
  });

  it('writes a lone surrogate (a byte of a header that was no UTF-8) as U+FFFD, keys included', () => {
    assert.deepEqual(normalizeContext({ referer: 'https://x.test/\udcff\udcfe', ['k\ud800']: 'é😀' }), { referer: 'https://x.test/\ufffd\ufffd', 'k\ufffd': 'é😀' });
  });
});

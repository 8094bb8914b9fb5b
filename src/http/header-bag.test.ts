import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeaderBag } from './header-bag.js';

describe('HeaderBag', () => {
  it('matches names in any case and keeps a header where it was first set, with its first spelling', () => {
    const headers = new HeaderBag({ 'X-Debug-Token': 'a1b2c3', 'Content-Type': 'text/html' });
    headers.set('x-debug-token-link', '/_profiler/a1b2c3');
    headers.set('CONTENT-TYPE', 'application/json');
    assert.equal(headers.get('content-type'), 'application/json');
    assert.ok(headers.has('X-DEBUG-TOKEN-LINK'));
    assert.deepEqual(headers.flatLines(), ['X-Debug-Token', 'a1b2c3', 'Content-Type', 'application/json', 'x-debug-token-link', '/_profiler/a1b2c3']);
    assert.equal(headers.size, 3);
  });

  it('keeps several values of one header, one line each, and hands out copies where a caller could change them', () => {
    const headers = new HeaderBag();
    headers.append('Set-Cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    headers.set('Vary', ['Accept']);
    headers.append('Vary', 'Origin');
    assert.deepEqual([...headers], [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Vary', 'Accept'], ['Vary', 'Origin']]);
    assert.deepEqual(headers.all('SET-COOKIE'), ['a=1', 'b=2']);
    assert.equal(headers.get('set-cookie'), 'a=1');
    const object = headers.toObject();
    assert.deepEqual(object, { 'Set-Cookie': ['a=1', 'b=2'], Vary: ['Accept', 'Origin'] });
    (object['Vary'] as string[]).push('changed');
    assert.deepEqual(headers.all('vary'), ['Accept', 'Origin']);
    const list = ['x'];
    headers.set('X-List', list);
    list.push('y');
    assert.deepEqual(headers.all('x-list'), ['x']);
    assert.deepEqual(headers.toObject()['X-List'], 'x');
  });

  it('inserts a new header before another, at the end when that one is absent, and leaves a present one where it is', () => {
    const bag = new HeaderBag([['Content-Type', 'text/html'], ['Cache-Control', 'no-cache'], ['Date', 'x']]);
    bag.insertBefore('cache-control', 'X-A', '1');
    bag.insertBefore('Cache-Control', 'X-B', '2');
    bag.insertBefore('Missing', 'X-C', '3');
    bag.insertBefore('Date', 'x-a', 'changed');
    assert.deepEqual([...bag], [['Content-Type', 'text/html'], ['X-A', 'changed'], ['X-B', '2'], ['Cache-Control', 'no-cache'], ['Date', 'x'], ['X-C', '3']]);
  });

  it('deletes a header wherever it is, and answers nothing for one it does not hold', () => {
    const headers = new HeaderBag([['A', '1'], ['B', '2'], ['C', '3']]);
    assert.equal(headers.delete('b'), true);
    assert.equal(headers.delete('b'), false);
    assert.deepEqual(headers.flatLines(), ['A', '1', 'C', '3']);
    assert.equal(headers.get('b'), undefined);
    assert.deepEqual(headers.all('b'), []);
    headers.set('B', 4);
    assert.deepEqual(headers.flatLines(), ['A', '1', 'C', '3', 'B', '4']);
  });

  it('refuses a name that is not a token where it is set, not later where node writes the response', () => {
    const headers = new HeaderBag();
    for (const name of ['X Bad', 'X-Bad:', '', 'Ä', 'a\r\nb']) {
      assert.throws(() => headers.set(name, '1'), { name: 'TypeError', message: /^Invalid header name .*RFC 9110 §5\.1\.$/ }, name);
      assert.throws(() => headers.insertBefore('x', name, '1'), TypeError, name);
    }
    headers.set("X-Ok_1!#$%&'*+.^`|~", '1');
    assert.equal(headers.size, 1);
  });

  it("gives a header named __proto__ (an upstream's, passed on) as an own name in toObject(), as any other", () => {
    const headers = new HeaderBag([['__proto__', 'p'], ['constructor', 'c']]);
    const object = headers.toObject();
    assert.deepEqual(Object.entries(object), [['__proto__', 'p'], ['constructor', 'c']]);
    assert.equal(Object.getPrototypeOf(object), Object.prototype);
  });
});

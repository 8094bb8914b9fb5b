import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setOwn } from './set-own.js';

describe('setOwn', () => {
  it('sets __proto__ as an own member, leaving the prototype alone, and other keys as assignment does', () => {
    const out: Record<string, unknown> = {};
    setOwn(out, '__proto__', { polluted: true });
    setOwn(out, 'a', 1);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(out.polluted, undefined);
    assert.equal(JSON.stringify(out), '{"__proto__":{"polluted":true},"a":1}');
  });
});

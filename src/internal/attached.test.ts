import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { NotFoundHttpException } from '../http/http-exception.js';
import { attached } from './attached.js';

const KEY = Symbol('test');

describe('attached', () => {
  it('computes once per object and keeps the value out of sight', () => {
    const error = new Error('boom');
    let calls = 0;
    const first = attached(error, KEY, () => ({ n: ++calls }));
    assert.equal(attached(error, KEY, () => ({ n: ++calls })), first);
    assert.equal(calls, 1);
    assert.deepEqual(Object.keys(error), []);
    assert.equal(JSON.stringify({ ...error }), '{}');
  });

  it('keeps the value in the room an object offers for it, out of sight too, frozen objects included', () => {
    const error = Object.freeze(new NotFoundHttpException('No route found'));
    let calls = 0;
    const first = attached(error, KEY, () => ({ derived: `value ${++calls}` }));
    assert.equal(attached(error, KEY, () => ({ derived: `value ${++calls}` })), first);
    assert.equal(calls, 1);
    assert.deepEqual(Object.getOwnPropertySymbols(error), []);
    assert.doesNotMatch(inspect(error, { showHidden: true }), /value 1/);
    assert.doesNotMatch(JSON.stringify({ ...error }), /value 1/);
  });

  it('computes anew for an object that cannot take the property', () => {
    const frozen = Object.freeze({});
    let calls = 0;
    attached(frozen, KEY, () => ++calls);
    attached(frozen, KEY, () => ++calls);
    assert.equal(calls, 2);
    const refusing = new Proxy({}, { defineProperty: () => { throw new Error('no'); } });
    assert.equal(attached(refusing, KEY, () => 'value'), 'value');
    const unreadable = new Proxy({}, { get: () => { throw new Error('no'); } });
    assert.equal(attached(unreadable, KEY, () => 'value'), 'value');
  });
});

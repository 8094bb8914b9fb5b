import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stringifyProfile } from './profile-json.js';
import { createTestProfile } from './profile-store.contract.js';

describe('stringifyProfile', () => {
  it('gives what JSON.stringify gives, undefined fields and collector data left out alike', () => {
    const profile = createTestProfile('4ea1d5', { parent: undefined, collectors: { request: { route: null, when: undefined }, gone: undefined, list: [1, 'two'] } });
    assert.equal(stringifyProfile(profile), JSON.stringify(profile));
    assert.deepEqual(JSON.parse(stringifyProfile(createTestProfile('000001', { collectors: {} }))), JSON.parse(JSON.stringify(createTestProfile('000001', { collectors: {} }))));
  });

  it('reuses the text of frozen collector data, and only of frozen data', () => {
    const shared = Object.freeze({ env: 'dev', calls: 0 });
    const open = { count: 1 };
    const first = stringifyProfile(createTestProfile('000001', { collectors: { config: shared, counter: open } }));
    open.count = 2;
    const second = JSON.parse(stringifyProfile(createTestProfile('000002', { collectors: { config: shared, counter: open } })));
    assert.deepEqual(JSON.parse(first).collectors, { config: { env: 'dev', calls: 0 }, counter: { count: 1 } });
    assert.deepEqual(second.collectors, { config: { env: 'dev', calls: 0 }, counter: { count: 2 } });
  });

  it('reuses the text of frozen parts inside frozen data, and gives exactly what JSON.stringify gives', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const trace = deepFreeze([{ function: 'f', file: '/a.ts', line: 1, inApp: true }, a]);
        const error = Object.freeze({ chain: [Object.freeze({ message: 'x', trace, when: undefined, date: new Date(0) }), b] });
        const profile = createTestProfile('00000a', { collectors: { exception: error, plain: { trace, n: 1 } } });
        assert.equal(stringifyProfile(profile), JSON.stringify(profile));
        // Again, from the cached texts.
        assert.equal(stringifyProfile(profile), JSON.stringify(profile));
      }),
      { numRuns: 200 },
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

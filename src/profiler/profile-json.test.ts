import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freezeWithJson, stringifyProfile } from './profile-json.js';
import { createTestProfile } from './profile-store.contract.js';

describe('stringifyProfile', () => {
  it('gives what JSON.stringify gives, undefined fields and collector data left out alike', () => {
    const profile = createTestProfile('4ea1d5', { parent: undefined, collectors: { request: { route: null, when: undefined }, gone: undefined, list: [1, 'two'] } });
    assert.equal(stringifyProfile(profile), JSON.stringify(profile));
    assert.deepEqual(JSON.parse(stringifyProfile(createTestProfile('000001', { collectors: {} }))), JSON.parse(JSON.stringify(createTestProfile('000001', { collectors: {} }))));
  });

  it('reuses the text of frozen collector data within the texts given, and only of frozen data', () => {
    const shared = Object.freeze({ env: 'dev', calls: 0 });
    const open = { count: 1 };
    const texts = new Map<object, string>();
    const first = stringifyProfile(createTestProfile('000001', { collectors: { config: shared, counter: open } }), texts);
    open.count = 2;
    const second = JSON.parse(stringifyProfile(createTestProfile('000002', { collectors: { config: shared, counter: open } }), texts));
    assert.deepEqual(JSON.parse(first).collectors, { config: { env: 'dev', calls: 0 }, counter: { count: 1 } });
    assert.deepEqual(second.collectors, { config: { env: 'dev', calls: 0 }, counter: { count: 2 } });
    assert.deepEqual([...texts.keys()], [shared]);
    // Frozen data is only taken for unchanging: a text made for it is reused, even after a (forbidden) change.
    texts.set(shared, '{"env":"cached"}');
    assert.deepEqual(JSON.parse(stringifyProfile(createTestProfile('000003', { collectors: { config: shared } }), texts)).collectors.config, { env: 'cached' });
    // Without texts, nothing is kept.
    assert.deepEqual(JSON.parse(stringifyProfile(createTestProfile('000004', { collectors: { config: shared } }))).collectors.config, { env: 'dev', calls: 0 });
  });

  it('writes the text made when data was frozen with its JSON, with or without texts, as JSON.stringify would', () => {
    const snapshot = freezeWithJson({ env: 'dev', limits: [1, 2] });
    assert.ok(Object.isFrozen(snapshot));
    assert.deepEqual(Object.keys(snapshot), ['env', 'limits']);
    const profile = createTestProfile('000005', { collectors: { config: snapshot } });
    assert.equal(stringifyProfile(profile), JSON.stringify(profile));
    const texts = new Map<object, string>();
    assert.equal(stringifyProfile(profile, texts), JSON.stringify(profile));
    // Nothing to remember per batch: the text lives with the data.
    assert.equal(texts.size, 0);
  });
});


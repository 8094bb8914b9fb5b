import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createTestProfile, describeProfileStoreContract } from './profile-store.contract.js';

describeProfileStoreContract('MemoryProfileStore', async () => ({ store: new MemoryProfileStore() }));

describe('MemoryProfileStore', () => {
  it('drops the oldest records beyond its limit', async () => {
    const store = new MemoryProfileStore({ limit: 2 });
    for (const token of ['000001', '000002', '000003']) store.add(createTestProfile(token));
    assert.equal(store.get('000001'), undefined);
    assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['000003', '000002']);
  });

  it('makes a record readable synchronously, before any promise settles', () => {
    const store = new MemoryProfileStore();
    void store.write(createTestProfile('000001'));
    assert.equal(store.get('000001')?.token, '000001');
  });
});

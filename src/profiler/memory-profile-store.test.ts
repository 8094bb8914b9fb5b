import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MemoryProfileStore } from './memory-profile-store.js';
import type { Profile } from './profile.js';
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

  it('keeps one entry per token, in the order of its first addition, through any mix of additions, forgets and purges', () => {
    // The reference: a Map re-inserted on each addition, its oldest dropped beyond the limit.
    const operation = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ forget: fc.integer({ min: 0, max: 40 }) }),
      fc.constant({ purge: true }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(operation, { maxLength: 400 }), (limit, operations) => {
        const store = new MemoryProfileStore({ limit });
        const model = new Map<string, Profile>();
        for (const op of operations) {
          if ('add' in op) {
            const profile = createTestProfile(String(op.add).padStart(6, '0'));
            store.add(profile);
            // Added again, a token keeps its place, as a Map's key does.
            model.set(profile.token, profile);
            while (model.size > limit) model.delete(model.keys().next().value!);
          } else if ('forget' in op) {
            const token = String(op.forget).padStart(6, '0');
            const held = model.get(token);
            // Forgetting another object under the same token leaves the record alone.
            store.forget(held ?? createTestProfile(token));
            if (held !== undefined) model.delete(token);
          } else {
            void store.purge();
            model.clear();
          }
          const listed = store.findSync({ limit: 100 }).map((summary) => summary.token);
          assert.deepEqual(listed, [...model.keys()].reverse());
          for (const [token, profile] of model) assert.equal(store.get(token), profile);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps its queue of tokens bounded when a record stays while others come and go', () => {
    const store = new MemoryProfileStore({ limit: 500 });
    // The front of a durable store: one record whose write failed stays, every other one is written and forgotten.
    store.add(createTestProfile('000000'));
    for (let i = 1; i <= 20_000; i++) {
      const profile = createTestProfile(i.toString(16).padStart(6, '0'));
      store.add(profile);
      store.add(profile);
      store.forget(profile);
    }
    assert.deepEqual(store.findSync({ limit: 10 }).map((summary) => summary.token), ['000000']);
    assert.ok(store.queueLength() <= 2 * 64, `the queue holds ${store.queueLength()} positions`);
  });
});

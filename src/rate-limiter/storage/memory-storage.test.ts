import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicySpec } from '../policies/policy.js';
import { MemoryStorage } from './memory-storage.js';
import { describeStorageContract } from './storage.contract.js';

describeStorageContract('MemoryStorage', async () => ({ storage: new MemoryStorage() }));

const SPEC: PolicySpec = { policy: 'fixed_window', limit: 5, interval: 10 };

describe('MemoryStorage', () => {
  it('sweeps expired keys as it writes, so idle clients do not pile up', () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 100; i++) storage.reserveNow(`old-${i}`, SPEC, 1, 1_000, -1);
    assert.equal(storage.size, 100);
    for (let i = 0; i < 20; i++) storage.reserveNow(`new-${i}`, SPEC, 1, 2_000, -1);
    assert.equal(storage.size, 20);
  });

  it('never holds more than maxKeys keys, dropping the oldest', () => {
    const storage = new MemoryStorage({ maxKeys: 10 });
    for (let i = 0; i < 50; i++) storage.reserveNow(`k-${i}`, SPEC, 1, 1_000 + i / 1000, -1);
    assert.equal(storage.size, 10);
    assert.equal(storage.reserveNow('k-49', SPEC, 1, 1_000.1, -1).remaining, 3);
  });
});

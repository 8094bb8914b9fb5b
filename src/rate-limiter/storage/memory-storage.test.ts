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

  it('sweeps expired keys hidden behind steady clients, so a refused client is never dropped to make room', () => {
    const steady: PolicySpec = { policy: 'fixed_window', limit: 100_000, interval: 1_000 };
    const storage = new MemoryStorage({ maxKeys: 1_000 });
    let largest = 0;
    let oneOff = 0;
    // Eight clients hitting every second from the start, twenty new clients a second (about 210 live keys).
    const second = (t: number) => {
      for (let s = 0; s < 8; s++) storage.reserveNow(`steady-${s}`, steady, 1, t, -1);
      for (let i = 0; i < 20; i++) storage.reserveNow(`one-off-${oneOff++}`, SPEC, 1, t + i / 100, -1);
      largest = Math.max(largest, storage.size);
    };
    for (let t = 1_000; t < 1_200; t++) second(t);
    const left = storage.reserveNow('steady-0', steady, 0, 1_200, -1).remaining;
    assert.equal(storage.reserveNow('steady-0', steady, left, 1_200, -1).remaining, 0);
    for (let t = 1_200; t < 1_209; t++) {
      second(t);
      assert.equal(storage.reserveNow('steady-0', steady, 1, t + 0.5, -1).accepted, false, `steady-0 refused at ${t}`);
    }
    assert.ok(largest < 300, `held ${largest} keys for about 210 live ones`);
  });

  it('never holds more than maxKeys keys, dropping the least recently used', () => {
    const storage = new MemoryStorage({ maxKeys: 10 });
    for (let i = 0; i < 50; i++) storage.reserveNow(`k-${i}`, SPEC, 1, 1_000 + i / 1000, -1);
    assert.equal(storage.size, 10);
    assert.equal(storage.reserveNow('k-49', SPEC, 1, 1_000.1, -1).remaining, 3);
  });

  it('keeps a blocked client past the bound while new keys keep coming (one address, a new account each time)', () => {
    const storage = new MemoryStorage({ maxKeys: 100 });
    for (let i = 0; i < 6; i++) storage.reserveNow('victim', SPEC, 1, 1_000, -1);
    assert.equal(storage.reserveNow('victim', SPEC, 1, 1_000, -1).accepted, false);
    for (let i = 0; i < 10_000; i++) storage.reserveNow(`junk-${i}`, SPEC, 1, 1_000 + i / 10_000, -1);
    assert.equal(storage.size, 100);
    assert.equal(storage.reserveNow('victim', SPEC, 1, 1_005, -1).accepted, false, 'still blocked within its window');
  });

  it('stays within maxKeys when every key is blocked', () => {
    const storage = new MemoryStorage({ maxKeys: 10 });
    for (let i = 0; i < 50; i++) for (let hit = 0; hit < 5; hit++) storage.reserveNow(`k-${i}`, SPEC, 1, 1_000, -1);
    assert.equal(storage.size, 10);
  });
});

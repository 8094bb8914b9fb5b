import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicySpec } from '../policies/policy.js';
import { GuardedStorage, StorageUnavailableError } from './guarded-storage.js';
import { MemoryStorage } from './memory-storage.js';
import type { Storage } from './storage.js';

const SPEC: PolicySpec = { policy: 'fixed_window', limit: 5, interval: 30 };

/** A storage whose health the test switches; when hanging, it never answers. */
function switchable() {
  const memory = new MemoryStorage();
  let mode: 'up' | 'down' | 'hang' = 'up';
  const storage: Storage = {
    reserve: (...args) => (mode === 'up' ? memory.reserve(...args) : mode === 'down' ? Promise.reject(new Error('ECONNREFUSED')) : new Promise(() => {})),
    reset: (id) => memory.reset(id),
    close: () => memory.close(),
  };
  return { storage, set: (next: typeof mode) => void (mode = next) };
}

describe('GuardedStorage', () => {
  it('turns a storage that never answers into StorageUnavailableError after the timeout', async () => {
    const { storage, set } = switchable();
    set('hang');
    await assert.rejects(new GuardedStorage(storage, { timeout: 20 }).reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
  });

  it('reports an outage once, however many requests fail, and the recovery once', async () => {
    const { storage, set } = switchable();
    const events: string[] = [];
    const guarded = new GuardedStorage(storage, { onOutage: () => void events.push('outage'), onRecovery: () => void events.push('recovery') });
    await guarded.reserve('k', SPEC, 1, 1, -1);
    set('down');
    for (let i = 0; i < 5; i++) await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    set('up');
    await guarded.reserve('k', SPEC, 1, 1, -1);
    await guarded.reserve('k', SPEC, 1, 1, -1);
    assert.deepEqual(events, ['outage', 'recovery']);
  });
});

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
    let now = 0;
    const guarded = new GuardedStorage(storage, { clock: () => now, onOutage: () => void events.push('outage'), onRecovery: () => void events.push('recovery') });
    await guarded.reserve('k', SPEC, 1, 1, -1);
    set('down');
    for (let i = 0; i < 5; i++) await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    set('up');
    now += 1_000;
    await guarded.reserve('k', SPEC, 1, 1, -1);
    await guarded.reserve('k', SPEC, 1, 1, -1);
    assert.deepEqual(events, ['outage', 'recovery']);
  });

  // An hour back (NTP, a VM resumed) left the last failure an hour ahead: the recovery went unreported for
  // an hour, and an outage in that hour too, taken for the one still going on.
  it('reports the recovery, and the next outage, after the clock steps back during an outage', async () => {
    const { storage, set } = switchable();
    const events: string[] = [];
    let now = 10_000_000;
    const guarded = new GuardedStorage(storage, { clock: () => now, onOutage: () => void events.push('outage'), onRecovery: () => void events.push('recovery') });
    set('down');
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    now -= 3_600_000;
    set('up');
    await guarded.reserve('k', SPEC, 1, 1, -1);
    now += 1_000;
    await guarded.reserve('k', SPEC, 1, 1, -1);
    set('down');
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    assert.deepEqual(events, ['outage', 'recovery', 'outage']);
  });

  it('keeps one outage while the storage fails now and then, and ends it once a second has passed without a failure', async () => {
    const { storage, set } = switchable();
    const events: string[] = [];
    let now = 0;
    const guarded = new GuardedStorage(storage, { clock: () => now, onOutage: () => void events.push('outage'), onRecovery: () => void events.push('recovery') });
    // A Redis that sleeps half a second in a loop: a late answer, then one in time, over and over.
    for (let cycle = 0; cycle < 10; cycle++) {
      set('down');
      await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
      set('up');
      now += 300;
      await guarded.reserve('k', SPEC, 1, 1, -1);
      now += 250;
    }
    assert.deepEqual(events, ['outage']);
    now += 450;
    await guarded.reserve('k', SPEC, 1, 1, -1);
    assert.deepEqual(events, ['outage', 'recovery']);
  });

  it('gives up a reset that gets no answer at the same deadline, reported as an outage', { timeout: 5_000 }, async () => {
    const outages: string[] = [];
    // Answers after 2 s, as a stalled Redis that goes on: past the deadline, well before the test's own timeout.
    const stalled: Storage = { reserve: () => new Promise(() => {}), reset: () => new Promise((resolve) => setTimeout(resolve, 2_000)), close: async () => {} };
    const guarded = new GuardedStorage(stalled, { timeout: 20, onOutage: (error) => void outages.push((error as Error).message) });
    // Waited for, the reset would resolve after 2 s instead of rejecting.
    await assert.rejects(guarded.reset('k'), StorageUnavailableError);
    assert.deepEqual(outages, ['no answer within 20 ms']);
  });

  it('fails at once, without a command, while maxAbandoned reservations still await their reply (a stalled storage)', async () => {
    let sent = 0;
    const stalled: Storage = { reserve: () => (sent++, new Promise(() => {})), reset: async () => {}, close: async () => {} };
    const guarded = new GuardedStorage(stalled, { timeout: 10, maxAbandoned: 3 });
    for (let i = 0; i < 3; i++) await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), (error: Error) => error instanceof StorageUnavailableError && (error.cause as Error).message === '3 reservations still unanswered');
    assert.equal(sent, 3);
  });

  it('sends again once abandoned reservations have their reply', async () => {
    const pending: (() => void)[] = [];
    let sent = 0;
    const slow: Storage = {
      reserve: (...args) => (sent++, new Promise((resolve) => pending.push(() => resolve(new MemoryStorage().reserve(...args))))),
      reset: async () => {},
      close: async () => {},
    };
    const guarded = new GuardedStorage(slow, { timeout: 10, maxAbandoned: 1 });
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    for (const reply of pending.splice(0)) reply();
    await new Promise((resolve) => setImmediate(resolve));
    const answered = guarded.reserve('k', SPEC, 1, 1, -1);
    for (const reply of pending.splice(0)) reply();
    assert.equal((await answered).accepted, true);
    assert.equal(sent, 2);
  });

  it("reports an outage with what the connection last said (a wrong password, a refused connection)", async () => {
    const outages: string[] = [];
    const refusing: Storage = {
      reserve: () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false")),
      lastError: () => new Error('WRONGPASS invalid username-password pair or user is disabled.'),
      reset: async () => {},
      close: async () => {},
    };
    const guarded = new GuardedStorage(refusing, { onOutage: (error) => void outages.push((error as Error).message) });
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    assert.deepEqual(outages, ["Stream isn't writeable and enableOfflineQueue options is false (the connection said: WRONGPASS invalid username-password pair or user is disabled.)"]);
  });

  it('reports the cause once more when the connection names it only after the outage began (NOAUTH on reconnecting)', async () => {
    const outages: string[] = [];
    const connection: { said?: Error } = {};
    const dropped: Storage = {
      reserve: () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false")),
      lastError: () => connection.said,
      reset: async () => {},
      close: async () => {},
    };
    const guarded = new GuardedStorage(dropped, { onOutage: (error) => void outages.push((error as Error).message) });
    await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    connection.said = new Error('Ready check failed: NOAUTH Authentication required.');
    for (let i = 0; i < 3; i++) await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
    assert.deepEqual(outages, [
      "Stream isn't writeable and enableOfflineQueue options is false",
      "Stream isn't writeable and enableOfflineQueue options is false (the connection said: Ready check failed: NOAUTH Authentication required.)",
    ]);
  });

  it('hears from a Redis client what its connection said', { timeout: 10_000 }, async () => {
    const { RedisStorage } = await import('./redis-storage.js');
    // Nothing listens on port 1: the connection is refused.
    const redis = new RedisStorage({ url: 'redis://127.0.0.1:1/0', commandTimeout: 50 });
    try {
      while (redis.lastError() === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      const outages: string[] = [];
      const guarded = new GuardedStorage(redis, { timeout: 50, onOutage: (error) => void outages.push((error as Error).message) });
      await assert.rejects(guarded.reserve('k', SPEC, 1, 1, -1), StorageUnavailableError);
      assert.match(outages[0] ?? '', /ECONNREFUSED/);
    } finally {
      await redis.close();
    }
  });
});

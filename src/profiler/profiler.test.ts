import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingLogger } from '../logging/recording-logger.js';
import { MemoryProfileStore } from './memory-profile-store.js';
import { createTestProfile } from './profile-store.contract.js';
import { Profiler } from './profiler.js';

describe('Profiler', () => {
  describe('when the durable store flaps between failing and writing', () => {
    it('logs the outage once, and its end only at a write that succeeds a second or more after the last failure', async () => {
      const store = new MemoryProfileStore();
      let failing = false;
      const write = store.write.bind(store);
      store.write = (profile) => (failing ? Promise.reject(new Error('Connection is closed.')) : write(profile));
      let now = 1_800_000_000_000;
      const logger = new RecordingLogger();
      const profiler = new Profiler({ store, collectors: [], clock: () => now, logger });
      let written = 0;
      const persist = async (fails: boolean) => {
        failing = fails;
        profiler.persist([createTestProfile((++written).toString(16).padStart(6, '0'))]);
        await profiler.flush();
      };
      const messages = () => logger.records.map((record) => record.message);
      for (let flap = 0; flap < 10; flap++) {
        await persist(true);
        now += 400;
        await persist(false);
        now += 400;
      }
      assert.deepEqual(messages(), ['profile store write failed']);
      await persist(true);
      now += 999;
      await persist(false);
      assert.deepEqual(messages(), ['profile store write failed'], 'a success within a second of the failure does not end the outage');
      now += 1;
      await persist(false);
      assert.deepEqual(messages(), ['profile store write failed', 'profile store recovered: records are written again']);
      await persist(true);
      assert.deepEqual(messages(), ['profile store write failed', 'profile store recovered: records are written again', 'profile store write failed'], 'the next outage is a line of its own');
    });
  });
});

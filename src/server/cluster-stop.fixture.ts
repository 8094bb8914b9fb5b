// A cluster of two workers whose stop fails when STOP_FAILS is set, and whose workers listen and die 50 ms
// later when CRASH_AFTER_LISTEN is set, all but the first with CRASH_OTHERS, which says when it has stopped
// (cluster.test.ts runs it as a process).
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { runServer } from './cluster.js';

await runServer({
  workers: 2,
  gracePeriod: 5_000,
  async start() {
    const crashes = process.env.CRASH_AFTER_LISTEN === '1' || (process.env.CRASH_OTHERS === '1' && cluster.worker?.id !== 1);
    if (crashes) {
      await new Promise<void>((resolve) => createServer().listen(0, '127.0.0.1', resolve));
      setTimeout(() => process.exit(3), 50);
    }
    process.stdout.write('worker started\n');
    if (process.env.CRASH_OTHERS === '1') return { close: async () => void process.stdout.write('healthy worker stopped\n') };
    return { close: () => (process.env.STOP_FAILS === '1' ? Promise.reject(new Error('the stop failed')) : Promise.resolve()) };
  },
});

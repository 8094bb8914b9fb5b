// A cluster of two workers whose stop fails when STOP_FAILS is set, and whose workers listen and die 50 ms
// later when CRASH_AFTER_LISTEN is set (cluster.test.ts runs it as a process).
import { createServer } from 'node:net';
import { runServer } from './cluster.js';

await runServer({
  workers: 2,
  gracePeriod: 5_000,
  async start() {
    if (process.env.CRASH_AFTER_LISTEN === '1') {
      await new Promise<void>((resolve) => createServer().listen(0, '127.0.0.1', resolve));
      setTimeout(() => process.exit(3), 50);
    }
    process.stdout.write('worker started\n');
    return { close: () => (process.env.STOP_FAILS === '1' ? Promise.reject(new Error('the stop failed')) : Promise.resolve()) };
  },
});

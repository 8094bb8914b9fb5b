// A cluster of two workers whose stop fails when STOP_FAILS is set (cluster.test.ts runs it as a process).
import { runServer } from './cluster.js';

await runServer({
  workers: 2,
  gracePeriod: 5_000,
  async start() {
    process.stdout.write('worker started\n');
    return { close: () => (process.env.STOP_FAILS === '1' ? Promise.reject(new Error('the stop failed')) : Promise.resolve()) };
  },
});

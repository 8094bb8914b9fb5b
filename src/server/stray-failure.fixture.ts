// One server process whose application rejects a promise (or, with THROW set, throws) outside any request,
// 20 ms after it started, while work of 300 ms is still under way (cluster.test.ts runs it as a process).
import { runServer } from './cluster.js';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

await runServer({
  workers: 1,
  gracePeriod: 5_000,
  logger: { info: () => undefined, warning: () => undefined, error: (message, context) => say(`logged: ${message}: ${(context?.exception as Error).message}`) },
  async start() {
    const inFlight = new Promise((resolve) => setTimeout(resolve, 300));
    setTimeout(() => {
      if (process.env.THROW === '1') throw new Error('thrown in the background');
      void Promise.reject(new Error('rejected in the background'));
    }, 20);
    return {
      async close() {
        await inFlight;
        say('stopped after the work under way');
      },
    };
  },
});

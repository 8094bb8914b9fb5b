/**
 * The demo application `npm start` runs: the reference application's routes on keel, in development
 * mode by default, configured from the environment and the `.env` files of the working directory.
 */
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load-config.js';
import { demoRoutes } from './routes.js';

const app = createApp({ config: loadConfig(), routes: demoRoutes });
const server = await app.listen();
process.stdout.write(`keel demo (${app.config.env}, debug ${app.config.debug ? 'on' : 'off'}) listening on ${server.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

/**
 * A prod server whose folder holds a file its process may not read, for the static files test:
 * `node --import tsx unreadable-file.fixture.ts <project dir>` prints `listening <port>` once it serves.
 * Root reads any file whatever its mode, so a server started as root drops to `nobody` once its modules
 * are loaded and it listens: the refusal is then what an unprivileged deployment sees.
 */
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { fileResponse } from '../../src/http/file-response.js';
import { staticFiles } from '../../src/http/static-files.js';

const NOBODY = 65534;

const project = process.argv[2]!;
const publicDir = join(project, 'public');
const config = loadConfig({ cwd: project, env: { APP_ENV: 'prod' } });
const app = createApp({
  config,
  routes: [
    { name: 'locked', path: '/locked', controller: () => fileResponse(join(publicDir, 'locked.txt')) },
    staticFiles({ root: publicDir, prefix: '/assets' }),
  ],
});
const running = await app.listen({ port: 0, host: '127.0.0.1' });
if (process.getuid?.() === 0) {
  process.setgid?.(NOBODY);
  process.setuid?.(NOBODY);
}
process.stderr.write(`listening ${running.port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

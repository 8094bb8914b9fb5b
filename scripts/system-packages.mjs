// The system programs the test suites drive for real: Redis (rate limiter and profiler storage), nginx (the
// TLS reverse proxy in front of keel, with openssl for its certificate) and Chromium (the profiler UI).
// Missing ones are installed from Debian's packages when running as root; otherwise the run stops with one
// line saying what to install.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

// Each is looked for where the test helpers run it from: redis-server and openssl (the nginx helper's
// certificate) by name on PATH, nginx and Chromium at their fixed paths. A copy found elsewhere on PATH
// would pass here and leave every nginx or browser test failing on its own, the package never installed.
const REQUIRED = [
  { binary: 'redis-server', pkg: 'redis-server' },
  { binary: 'openssl', pkg: 'openssl' },
  { path: '/usr/sbin/nginx', pkg: 'nginx' },
  { path: process.env.KEEL_CHROMIUM ?? '/usr/bin/chromium', pkg: 'chromium' },
];

function found({ binary, path }) {
  if (binary !== undefined) return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function ensureSystemPackages() {
  const missing = REQUIRED.filter((entry) => !found(entry));
  if (missing.length === 0) return;
  const packages = missing.map((entry) => entry.pkg);
  if (process.getuid?.() !== 0) {
    console.error(`missing system packages: run 'sudo apt-get install -y ${packages.join(' ')}' and try again`);
    process.exit(1);
  }
  console.log(`installing system packages: ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const still = REQUIRED.filter((entry) => !found(entry));
  if (update.status !== 0 || install.status !== 0 || still.length > 0) {
    console.error(`could not install system packages: ${still.map((entry) => entry.pkg).join(' ') || packages.join(' ')}`);
    process.exit(1);
  }
}

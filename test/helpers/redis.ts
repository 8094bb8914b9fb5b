import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit; the port stays reserved for `start()`. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a stalled host. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** A free TCP port of 127.0.0.1, found by binding port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a redis-server of the test's own on a free port, without persistence, and waits until it
 * answers PING. KEEL_TEST_REDIS_URL=redis://host:port makes it use that server instead (stop/start are
 * then refused: a shared server is never stopped by a test). Throws when redis-server is not installed.
 */
export async function startRedis(): Promise<RunningRedis> {
  const shared = process.env.KEEL_TEST_REDIS_URL;
  if (shared !== undefined && shared !== '') {
    const port = Number(new URL(shared).port || 6379);
    const refuse = () => Promise.reject(new Error('KEEL_TEST_REDIS_URL is a shared server: the test cannot stop or start it'));
    const refuseNow = () => {
      throw new Error('KEEL_TEST_REDIS_URL is a shared server: the test cannot pause it');
    };
    return { port, url: shared, stop: refuse, start: refuse, pause: refuseNow, resume: refuseNow, close: () => Promise.resolve() };
  }
  if (spawnSync('redis-server', ['--version']).error !== undefined) throw new Error('redis-server not found: apt-get install redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'keel-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    const spawned = child;
    // A test process that dies without closing must not leave its server behind.
    const killOnExit = () => spawned.kill('SIGKILL');
    process.once('exit', killOnExit);
    spawned.once('exit', () => process.off('exit', killOnExit));
    const exited = new Promise<never>((_, reject) => spawned.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))));
    await Promise.race([waitForPing(port), exited]);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async close() {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPing(port: number, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer PING`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

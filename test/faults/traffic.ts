import { connect } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Outcome =
  | { kind: 'answered'; status: number; token: string | undefined }
  /** Refused, or reset before a single byte came back: the server never took the request on. */
  | { kind: 'refused'; code: string }
  /** Anything else: a response cut short, a reset after bytes were sent. */
  | { kind: 'broken'; detail: string };

/** One request over a fresh connection (Connection: close), classified rather than thrown. */
export function attempt(port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const done = (outcome: Outcome): void => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(15_000, () => done({ kind: 'broken', detail: 'timed out' }));
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nhost: app.example.test\r\nconnection: close\r\n\r\n`));
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (data === '' && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) done({ kind: 'refused', code: error.code });
      else done({ kind: 'broken', detail: `${error.code}: ${data.slice(0, 80)}` });
    });
    socket.on('end', () => {
      const head = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(data.slice(0, head));
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (data === '') return done({ kind: 'refused', code: 'EOF' });
      if (head === -1 || status === null || length === null || Buffer.byteLength(data.slice(head + 4), 'latin1') !== Number(length[1])) {
        return done({ kind: 'broken', detail: `incomplete: ${data.slice(0, 80)}` });
      }
      done({ kind: 'answered', status: Number(status[1]), token: /\r\nx-debug-token: ([0-9a-f]{6})/i.exec(data)?.[1] });
    });
  });
}

/**
 * `concurrency` loops sending requests to the paths in turn, until `stop()` says so or a loop has sent
 * `perLoop` requests (bounded either way).
 */
export async function drive(port: number, paths: string[], { concurrency, perLoop, stop }: { concurrency: number; perLoop: number; stop: () => boolean }): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      for (let i = 0; i < perLoop && !stop(); i++) {
        const outcome = await attempt(port, paths[(loop + i) % paths.length]!);
        outcomes.push(outcome);
        if (outcome.kind === 'refused') return;
      }
    }),
  );
  return outcomes;
}

/** The tokens listed in the profiler's index (index.csv and its sealed segments). */
export function indexedTokens(projectDir: string): string[] {
  const dir = join(projectDir, 'var', 'profiler');
  const tokens: string[] = [];
  for (const name of readdirSync(dir).filter((file) => /^index.*\.csv$/.test(file))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      const token = /^([0-9a-f]{6}),/.exec(line)?.[1];
      if (token !== undefined) tokens.push(token);
    }
  }
  return tokens;
}

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnDemo, type DemoProcess } from './demo-process.js';
import { attempt, drive, indexedTokens, type Outcome } from './traffic.js';

const GRACE_MS = 8_000;
const BODY = 'username=alice&password=x';

/** A POST /login whose body is only half sent: a request the server has started and cannot finish yet. */
function startHalfSentLogin(port: number): Promise<{ socket: Socket; finish(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(`POST /login HTTP/1.1\r\nhost: app.example.test\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: ${BODY.length}\r\nconnection: close\r\n\r\n${BODY.slice(0, 10)}`);
      resolve({
        socket,
        finish: () =>
          new Promise((done) => {
            socket.on('end', () => done(data));
            socket.write(BODY.slice(10));
          }),
      });
    });
  });
}

async function waitUntilRefused(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await attempt(port, '/about')).kind === 'refused') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the server kept accepting connections after SIGTERM');
}

describe('SIGTERM during load', () => {
  let demo: DemoProcess;
  after(() => demo?.close());

  it('finishes in-flight requests, refuses new connections, flushes profiles and logs, and exits 0 within the grace period', async (t) => {
    // maxRecords above anything this test produces, so that no record is pruned before it is looked for.
    demo = await spawnDemo({ env: { APP_ENV: 'dev', SHUTDOWN_GRACE_MS: String(GRACE_MS), KEEL_PROFILER_MAX_RECORDS: '100000' } });
    const halfSent = await Promise.all(Array.from({ length: 4 }, () => startHalfSentLogin(demo.port)));

    let signalled = false;
    let answeredBeforeSignal = 0;
    const load = drive(demo.port, ['/robots.txt', '/about', '/login', '/api/status'], {
      concurrency: 8,
      perLoop: 400,
      stop: () => false,
    });
    // Signal once the load is well under way (bounded: the loops stop by themselves after 3 200 requests).
    for (let i = 0; i < 400 && !signalled; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      answeredBeforeSignal = indexedTokensSafe(demo.projectDir).length;
      if (answeredBeforeSignal >= 40 || i === 399) {
        demo.child.kill('SIGTERM');
        signalled = true;
      }
    }
    await waitUntilRefused(demo.port);

    // The half-sent requests were in flight when the signal came: they still complete.
    const answers = await Promise.all(halfSent.map((request) => request.finish()));
    for (const answer of answers) assert.match(answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nlogin ok\n$/);

    const outcomes: Outcome[] = await load;
    const broken = outcomes.filter((outcome) => outcome.kind === 'broken');
    assert.deepEqual(broken, [], 'no response was cut short');
    const answered = outcomes.filter((outcome): outcome is Extract<Outcome, { kind: 'answered' }> => outcome.kind === 'answered');
    assert.ok(answered.length > 0);
    assert.ok(answered.every((outcome) => outcome.status < 500));

    const refused = outcomes.filter((outcome) => outcome.kind === 'refused').length;
    t.diagnostic(`${answered.length} answered during the load, ${refused} refused after the signal, ${answers.length} in flight completed`);
    const { code, signal } = await demo.exited;
    assert.equal(signal, null);
    // Past the grace period the stop cuts what is still open, which `broken` would hold.
    assert.equal(code, 0);

    // Every record announced in a response reached the disk before the exit.
    const onDisk = new Set(indexedTokens(demo.projectDir));
    const announced = answered.flatMap((outcome) => (outcome.token === undefined ? [] : [outcome.token]));
    assert.deepEqual(announced.filter((token) => !onDisk.has(token)), []);
    for (const answer of answers) {
      const token = /\r\nx-debug-token: ([0-9a-f]{6})/i.exec(answer)?.[1];
      assert.ok(token !== undefined && onDisk.has(token), 'the in-flight requests\' records were flushed');
    }
    const log = readFileSync(join(demo.projectDir, 'var', 'log', 'dev.log'), 'utf8');
    assert.ok((log.match(/Matched route "login"/g) ?? []).length >= answers.length, 'their log lines were flushed');
  });
});

function indexedTokensSafe(projectDir: string): string[] {
  try {
    return indexedTokens(projectDir);
  } catch {
    return [];
  }
}

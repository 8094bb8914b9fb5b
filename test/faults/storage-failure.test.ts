import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sendRaw } from '../helpers/raw-http.js';
import { spawnDemo, type DemoProcess } from './demo-process.js';
import { attempt } from './traffic.js';

// Running as root, a read-only directory (chmod 0500) is still writable, so the unwritable profiler
// storage is simulated the way that fails for every user: var/profiler is a file, and every mkdir, write
// and rename under it fails with ENOTDIR, as every write fails on a read-only or full disk.
describe('the profiler storage cannot be written', () => {
  let demo: DemoProcess;
  after(() => demo?.close());

  it('still answers every request, serves the recent records from memory and logs the failure once', async () => {
    const projectDir = mkdtempSync(join(tmpdir(), 'keel-rofs-'));
    writeFileSync(join(projectDir, '.env'), 'TRUSTED_PROXIES=loopback\n');
    mkdirSync(join(projectDir, 'var'));
    writeFileSync(join(projectDir, 'var', 'profiler'), 'not a directory\n');
    demo = await spawnDemo({ env: { APP_ENV: 'dev' }, projectDir });

    const tokens: string[] = [];
    for (let i = 0; i < 30; i++) {
      const outcome = await attempt(demo.port, i % 2 === 0 ? '/robots.txt' : '/about');
      assert.equal(outcome.kind, 'answered');
      if (outcome.kind !== 'answered') continue;
      assert.equal(outcome.status, i % 2 === 0 ? 404 : 200);
      if (outcome.token !== undefined) tokens.push(outcome.token);
    }
    assert.equal(tokens.length, 30);
    // The in-memory front of the store still holds them for this run.
    const page = await sendRaw(demo.port, `GET /_profiler/${tokens.at(-1)} HTTP/1.1\r\nhost: app.example.test\r\nconnection: close\r\n\r\n`);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes(tokens.at(-1)!));
    const search = await sendRaw(demo.port, 'GET /_profiler/empty/search/results?limit=10 HTTP/1.1\r\nhost: app.example.test\r\nconnection: close\r\n\r\n');
    assert.equal(search.status, 200);

    await demo.close({ keepDir: true });
    const { code } = await demo.exited;
    assert.equal(code, 0, 'the shutdown does not fail on the unwritable store either');
    const log = readFileSync(join(projectDir, 'var', 'log', 'dev.log'), 'utf8');
    const failures = log.split('\n').filter((line) => line.includes('profile store write failed'));
    assert.equal(failures.length, 1, `one line per outage, not one per record:\n${failures.join('\n')}`);
    assert.match(failures[0]!, /app\.ERROR: profile store write failed .*ENOTDIR/);
    assert.equal(readFileSync(join(projectDir, 'var', 'profiler'), 'utf8'), 'not a directory\n');
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseIndexLine } from '../../src/profiler/profile-index.js';
import { sendRaw } from '../helpers/raw-http.js';
import { spawnDemo, type DemoProcess } from './demo-process.js';
import { attempt, drive, indexedTokens } from './traffic.js';

const get = (port: number, path: string) => sendRaw(port, `GET ${path} HTTP/1.1\r\nhost: app.example.test\r\nconnection: close\r\n\r\n`);

describe('kill -9 during load, then a restart on the same var/', () => {
  const processes: DemoProcess[] = [];
  after(async () => {
    for (const demo of processes) await demo.close();
  });

  it('opens the profiler store again, serves no corrupt record and keeps the index consistent', async (t) => {
    const env = { APP_ENV: 'dev', KEEL_PROFILER_MAX_RECORDS: '100000' };
    const first = await spawnDemo({ env });
    processes.push(first);
    let killed = false;
    const load = drive(first.port, ['/robots.txt', '/about', '/login', '/no/such'], { concurrency: 8, perLoop: 300, stop: () => killed });
    // Kill once records are being written (bounded wait), in the middle of the traffic.
    for (let i = 0; i < 400 && !killed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (safeTokens(first.projectDir).length >= 60 || i === 399) {
        first.child.kill('SIGKILL');
        killed = true;
      }
    }
    await load;
    assert.equal((await first.exited).signal, 'SIGKILL');

    // What a crash can leave behind on top of that: a torn index line, and a record cut short.
    const dir = join(first.projectDir, 'var', 'profiler');
    const tokens = indexedTokens(first.projectDir);
    assert.ok(tokens.length > 0);
    // The store writes a record before its index line: every line the kill left names a complete file.
    for (const token of tokens) findRecordFile(dir, token);
    const index = readdirSync(dir).find((name) => name === 'index.csv') ?? readdirSync(dir).find((name) => /^index.*\.csv$/.test(name))!;
    writeFileSync(join(dir, index), readFileSync(join(dir, index), 'utf8') + 'abc123,127.0.0.1,GET,http://app.exa');
    const victim = tokens[0]!;
    const victimPath = findRecordFile(dir, victim);
    writeFileSync(victimPath, readFileSync(victimPath).subarray(0, 10));

    const second = await spawnDemo({ env, projectDir: first.projectDir });
    processes.push(second);
    let opened = 0;
    for (const token of tokens) {
      const page = await get(second.port, `/_profiler/${token}`);
      assert.equal(page.status, 200, `record ${token}`);
      if (token === victim) assert.match(page.body, /Token not found|not found/i, 'the cut-short record is not served');
      else if (page.body.includes(token)) opened++;
    }
    assert.equal(opened, tokens.length - 1, 'every complete record listed in the index opens');
    const torn = await get(second.port, '/_profiler/abc123');
    assert.equal(torn.status, 200);
    assert.match(torn.body, /not found/i);

    const search = await get(second.port, '/_profiler/empty/search/results?limit=100');
    assert.equal(search.status, 200);
    assert.ok(!search.body.includes('abc123'), 'the torn line is not listed');

    // And the store keeps working: new records are written and readable next to the old ones.
    const fresh = await attempt(second.port, '/robots.txt');
    assert.equal(fresh.kind, 'answered');
    const token = fresh.kind === 'answered' ? fresh.token : undefined;
    assert.equal((await get(second.port, `/_profiler/${token}`)).status, 200);
    await second.close({ keepDir: true });
    assert.ok(indexedTokens(first.projectDir).includes(token!));
    t.diagnostic(`${tokens.length} records indexed before the kill, ${opened} reopened after the restart`);
  });
});

/** The record's file, where its index line puts it; throws unless the file holds the bytes the line gives. */
function findRecordFile(dir: string, token: string): string {
  for (const name of readdirSync(dir).filter((file) => /^index.*\.csv$/.test(file))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      const entry = parseIndexLine(line);
      if (entry?.token !== token || entry.location === undefined) continue;
      const path = join(dir, 'rings', entry.location.ring, String(entry.location.slot));
      if (statSync(path).size < entry.location.length) throw new Error(`the file of indexed record ${token} is cut short`);
      return path;
    }
  }
  throw new Error(`no file for indexed record ${token}`);
}

function safeTokens(projectDir: string): string[] {
  try {
    return indexedTokens(projectDir);
  } catch {
    return [];
  }
}

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../helpers/raw-http.js';
import { cleanEnv, runKeel } from './run-keel.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/getting-started.ts', import.meta.url));
// Resolved here: `--import tsx` alone would look for tsx in the temporary project directory. That directory
// has no tsconfig.json, as an application's may not: keel's views (preact JSX) must render all the same.
const TSX = import.meta.resolve('tsx');

describe('examples/getting-started.ts, as docs/getting-started.md runs it', () => {
  let projectDir: string;
  let port: number;
  let stop: () => Promise<number | null>;

  before(async () => {
    projectDir = mkdtempSync(join(tmpdir(), 'keel-getting-started-'));
    const child = spawn(process.execPath, ['--import', TSX, EXAMPLE], { cwd: projectDir, env: cleanEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    stop = () => {
      child.kill('SIGTERM');
      return exited;
    };
    let stdout = '';
    port = await new Promise<number>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const found = /listening on http:\/\/[^:]+:(\d+)/.exec(stdout);
        if (found) resolve(Number(found[1]));
      });
      child.on('close', (code) => reject(new Error(`the example exited with ${code}: ${stdout}`)));
    });
  });
  after(async () => {
    await stop();
    rmSync(projectDir, { recursive: true, force: true });
  });

  it('answers its three routes', async () => {
    const home = await rawRequest(port, { path: '/' });
    assert.equal(home.status, 200);
    assert.match(home.body, /<h1>Books<\/h1>/);
    const book = await rawRequest(port, { path: '/books/2' });
    assert.deepEqual(JSON.parse(book.body), { id: 2, title: 'Refactoring' });
    const login = await rawRequest(port, { method: 'POST', path: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user=ada' });
    assert.deepEqual(JSON.parse(login.body), { welcome: 'ada' });
  });

  it('answers the 404 and 405 the routing guide describes', async () => {
    const missing = await rawRequest(port, { path: '/books/3', headers: { accept: 'application/json' } });
    assert.equal(missing.status, 404, missing.body.slice(0, 400));
    const refused = await rawRequest(port, { path: '/books/abc' });
    assert.equal(refused.status, 404);
    // The debug page itself, compiled without keel's tsconfig.
    assert.match(refused.body, /<title>No route found for &quot;GET http:\/\/localhost\/books\/abc&quot; \(404 Not Found\)<\/title>/);
    assert.equal(decodeURIComponent(refused.header('x-debug-exception') ?? ''), 'No route found for "GET http://localhost/books/abc"');
    const wrongMethod = await rawRequest(port, { path: '/login' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.header('allow'), 'POST');
  });

  it('exposes its routes to keel debug:router without starting a server', async () => {
    const run = await runKeel(['debug:router', '--env=prod', '--app', EXAMPLE], { cwd: projectDir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^book_show\s+GET\s+ANY\s+ANY\s+\/books\/\{id\}\s+id: \\d\+$/m);
    assert.doesNotMatch(run.stdout, /listening/);
  });
});

describe('docs/getting-started.md', () => {
  it('shows the example file as it is, imported from keel', () => {
    const guide = readFileSync(fileURLToPath(new URL('../../docs/getting-started.md', import.meta.url)), 'utf8');
    const shown = /```ts\n([^]*?)```/.exec(guide)?.[1];
    const file = readFileSync(EXAMPLE, 'utf8');
    // The file without its opening comment, as an application would import keel.
    const code = file.slice(file.indexOf('\nimport ') + 1).replace("from '../src/index.js'", "from 'keel'");
    assert.equal(shown, code);
  });
});

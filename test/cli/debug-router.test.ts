import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { runKeel } from './run-keel.js';

const HOST_APP = fileURLToPath(new URL('./fixtures/host-app.ts', import.meta.url));

describe('keel debug:router', () => {
  it('prints keel\'s version with --version, as the package names it, exit code 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await runKeel([flag]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${version}\n`);
    }
  });

  it('lists the demo routes from the repository root, in matching order, with methods and requirements', async () => {
    const run = await runKeel(['debug:router']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const lines = run.stdout.split('\n');
    assert.match(lines[0]!, /^Name\s+Method\s+Scheme\s+Host\s+Path\s+Requirements$/);
    const names = lines.slice(2).filter(Boolean).map((line) => line.split(/\s+/)[0]);
    assert.ok(names.indexOf('home') < names.indexOf('item_edit'), 'definition order kept');
    assert.ok(names.includes('_profiler'), 'the profiler routes are listed in dev');
    assert.match(run.stdout, /^item_edit\s+PUT\|PATCH\|DELETE\s+ANY\s+ANY\s+\/items\/\{id\}\s+id: \\d\+$/m);
    assert.match(run.stdout, /^login\s+POST\s+ANY\s+ANY\s+\/login$/m);
    assert.ok(!run.stdout.includes('\u001b['), 'no colour when stdout is not a terminal');
  });

  it('prints the table as JSON keyed by route name with --format=json', async () => {
    const run = await runKeel(['debug:router', '--format=json', '--env=prod']);
    assert.equal(run.code, 0, run.stderr);
    const table = JSON.parse(run.stdout) as Record<string, { path: string; methods: string[]; requirements: Record<string, string> }>;
    assert.equal(Object.keys(table)[0], 'home', 'no profiler routes outside debug');
    assert.deepEqual(table.item_edit?.methods, ['PUT', 'PATCH', 'DELETE']);
    assert.deepEqual(table.item_edit?.requirements, { id: '\\d+' });
    assert.equal(table.blog_index?.path, '/blog/');
  });

  it('shows one route in full, its host requirement and regex included', async () => {
    const run = await runKeel(['debug:router', 'admin', '--app', HOST_APP]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Route Name\s+admin$/m);
    assert.match(run.stdout, /^Host\s+admin\.example\.test$/m);
    assert.match(run.stdout, /^Host Regex\s+\/\^admin\\\.example\\\.test\$\/isu$/m);
    assert.match(run.stdout, /^Method\s+ANY$/m);
  });

  it('fails with exit code 1 and one line on stderr for an unknown route', async () => {
    const run = await runKeel(['debug:router', 'nope', '--app', HOST_APP]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'error: route "nope" does not exist\n');
    const typo = await runKeel(['debug:router', 'blog_indx']);
    assert.equal(typo.code, 1);
    assert.equal(typo.stderr, 'error: route "blog_indx" does not exist (did you mean "blog_index"?)\n');
  });

  it('lists the routes a partial name matches, as Symfony does without a prompt', async () => {
    const run = await runKeel(['debug:router', 'POST', '--app', HOST_APP]);
    assert.equal(run.code, 0, run.stderr);
    const names = run.stdout.split('\n').slice(2).filter((line) => line !== '').map((line) => line.split(/\s+/)[0]);
    assert.deepEqual(names, ['post_show', 'post_update']);
  });

  it('suggests the command meant, on the one line of its error', async () => {
    const run = await runKeel(['debug:routr']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, "error: unknown command 'debug:routr' (Did you mean debug:router?)\n");
  });

  it('answers a usage error with exit code 2', async () => {
    const run = await runKeel(['debug:router', '--format=xml']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, "error: option '--format <format>' argument 'xml' is invalid. Allowed choices are txt, json.\n");
  });

  it('prints its help on stdout with exit code 0', async () => {
    const run = await runKeel(['debug:router', '--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: keel debug:router \[options\] \[name\]/);
    assert.match(run.stdout, /--format <format>/);
  });
});

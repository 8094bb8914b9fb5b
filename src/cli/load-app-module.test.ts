import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliError } from './cli-error.js';
import { firstLine, loadAppModule, resolveAppModulePath } from './load-app-module.js';

describe('resolveAppModulePath', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-app-module-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', keel: { app: './src/app.ts' } }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers --app, then KEEL_APP, then "keel.app" in package.json, each relative to the project', () => {
    assert.deepEqual(resolveAppModulePath({ option: 'a.ts', env: { KEEL_APP: 'b.ts' }, cwd: dir }), { path: join(dir, 'a.ts'), source: '--app' });
    assert.deepEqual(resolveAppModulePath({ env: { KEEL_APP: 'b.ts' }, cwd: dir }), { path: join(dir, 'b.ts'), source: 'KEEL_APP' });
    assert.deepEqual(resolveAppModulePath({ env: {}, cwd: dir }), { path: join(dir, 'src', 'app.ts'), source: 'package.json' });
  });

  it('fails in words on a package.json that is not an object', () => {
    const odd = mkdtempSync(join(tmpdir(), 'keel-app-module-'));
    try {
      writeFileSync(join(odd, 'package.json'), 'null\n');
      assert.throws(() => resolveAppModulePath({ env: {}, cwd: odd }), (error: unknown) => error instanceof CliError && error.message === 'package.json must hold a JSON object');
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });

  it('fails with the three ways to name a module when none is given', () => {
    const empty = mkdtempSync(join(tmpdir(), 'keel-app-module-'));
    try {
      assert.throws(() => resolveAppModulePath({ env: {}, cwd: empty }), (error: unknown) => error instanceof CliError && /--app <module>, set KEEL_APP/.test(error.message));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('loadAppModule', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-app-module-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(dir, 'named.mjs'), "export const shopRoutes = [{ name: 'a', path: '/a' }];\nexport const subscribers = [];\n");
    writeFileSync(join(dir, 'none.mjs'), 'export const answer = 42;\n');
    writeFileSync(join(dir, 'split.mjs'), "export const apiRoutes = [{ name: 'a', path: '/a' }];\nexport const adminRoutes = [{ name: 'b', path: '/b' }];\n");
    writeFileSync(join(dir, 'broken.mjs'), 'export const routes = [;\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('takes the only export whose name ends in Routes when there is no "routes" export', async () => {
    const module = await loadAppModule(join(dir, 'named.mjs'), dir);
    assert.deepEqual(module.routes.map((route) => route.name), ['a']);
    assert.deepEqual(module.subscribers, []);
  });

  it('says what to export when the module has no route table', async () => {
    await assert.rejects(loadAppModule(join(dir, 'none.mjs'), dir), { message: 'application module "none.mjs" exports no route table: export "routes", an array of route definitions' });
  });

  it('names the route tables when several exports end in Routes, rather than saying there is none', async () => {
    await assert.rejects(loadAppModule(join(dir, 'split.mjs'), dir), {
      message: 'application module "split.mjs" exports several route tables (adminRoutes, apiRoutes): export the one to serve as "routes", such as `export const routes = [...adminRoutes, ...apiRoutes]`',
    });
  });

  it('reports a module that does not load, or does not exist, in one line', async () => {
    await assert.rejects(loadAppModule(join(dir, 'broken.mjs'), dir), (error: unknown) => error instanceof CliError && error.message.startsWith('cannot load application module "broken.mjs": ') && !error.message.includes('\n'));
    await assert.rejects(loadAppModule(join(dir, 'missing.ts'), dir), { message: 'application module "missing.ts" does not exist' });
  });
});

describe('firstLine', () => {
  it('keeps the line that says where and what when the first one only announces it', () => {
    assert.equal(firstLine(new Error('Transform failed with 1 error:\n/app/a.ts:1:48: ERROR: Expected "}" but found ";"\n')), 'Transform failed with 1 error: /app/a.ts:1:48: ERROR: Expected "}" but found ";"');
    assert.equal(firstLine(new Error('Unexpected token\n    at x')), 'Unexpected token');
    assert.equal(firstLine('plain'), 'plain');
  });
});

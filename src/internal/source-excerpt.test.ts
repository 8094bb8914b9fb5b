import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { clearSourceExcerptCache, readSourceExcerpt, readSourceFile, sourceExcerptCacheSize } from './source-excerpt.js';

describe('readSourceExcerpt', () => {
  let root: string;
  let outside: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'keel-excerpt-'));
    outside = mkdtempSync(join(tmpdir(), 'keel-outside-'));
    const body = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    writeFileSync(join(root, 'app.ts'), body);
    writeFileSync(join(outside, 'secret.ts'), body);
    mkdirSync(join(root, 'dir.ts'));
    writeFileSync(join(root, '.env'), body);
    mkdirSync(join(root, 'var'));
    writeFileSync(join(root, 'var', 'dev.log'), body);
    symlinkSync(join(root, '.env'), join(root, 'env-link.ts'));
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    clearSourceExcerptCache();
  });

  it('returns the lines around the selected one, numbered from 1', () => {
    const excerpt = readSourceExcerpt(join(root, 'app.ts'), 10, { roots: [root], around: 2 });
    assert.deepEqual(excerpt, [
      { number: 8, text: 'line 8', selected: false },
      { number: 9, text: 'line 9', selected: false },
      { number: 10, text: 'line 10', selected: true },
      { number: 11, text: 'line 11', selected: false },
      { number: 12, text: 'line 12', selected: false },
    ]);
  });

  it('gives the same frozen excerpt again while the file is cached, and another for another width or line', () => {
    const file = join(root, 'app.ts');
    const excerpt = readSourceExcerpt(file, 10, { roots: [root], around: 2 });
    assert.equal(readSourceExcerpt(file, 10, { roots: [root], around: 2 }), excerpt);
    assert.ok(Object.isFrozen(excerpt) && excerpt.every((line) => Object.isFrozen(line)));
    assert.equal(readSourceExcerpt(file, 10, { roots: [root], around: 3 }).length, 7);
    assert.equal(readSourceExcerpt(file, 11, { roots: [root], around: 2 })[2]?.text, 'line 11');
    // A width too large for the cache key is still served, uncached.
    assert.equal(readSourceExcerpt(file, 10, { roots: [root], around: 70_000 }).length, 20);
  });

  it('clips the window at the start and the end of the file', () => {
    assert.deepEqual(readSourceExcerpt(join(root, 'app.ts'), 1, { roots: [root], around: 1 }).map((l) => l.number), [1, 2]);
    assert.deepEqual(readSourceExcerpt(join(root, 'app.ts'), 20, { roots: [root], around: 1 }).map((l) => l.number), [19, 20]);
  });

  it('refuses files outside the allowed roots', () => {
    assert.deepEqual(readSourceExcerpt(join(outside, 'secret.ts'), 3, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, '..', 'etc', 'passwd'), 1, { roots: [root] }), []);
  });

  it('refuses files that are not JavaScript or TypeScript sources, even below a root or behind a .ts link', () => {
    assert.deepEqual(readSourceExcerpt(join(root, '.env'), 3, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'var', 'dev.log'), 3, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'env-link.ts'), 3, { roots: [root] }), []);
    for (const name of ['a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.mts', 'a.cts', 'a.tsx']) {
      writeFileSync(join(root, name), 'x\n');
      assert.equal(readSourceExcerpt(join(root, name), 1, { roots: [root] })[0]?.text, 'x', name);
    }
  });

  it('refuses node internals, relative paths, directories, missing files and bad line numbers without throwing', () => {
    assert.deepEqual(readSourceExcerpt('node:internal/modules/cjs/loader', 10, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt('app.ts', 1, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'dir.ts'), 1, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'missing.ts'), 1, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'app.ts'), 0, { roots: [root] }), []);
    assert.deepEqual(readSourceExcerpt(join(root, 'app.ts'), 999, { roots: [root] }), []);
  });

  it('reads keel sources by default', () => {
    const excerpt = readSourceExcerpt(fileURLToPath(import.meta.url), 1);
    assert.equal(excerpt[0]?.text, "import assert from 'node:assert/strict';");
  });

  it('reads a file again for the source view once it changed, and one created since it was found missing', () => {
    const file = join(root, 'edited.ts');
    writeFileSync(file, '// v1\n');
    assert.deepEqual(readSourceFile(file, { roots: [root] }), ['// v1', '']);
    writeFileSync(file, '// v2, longer\n');
    assert.deepEqual(readSourceFile(file, { roots: [root] }), ['// v2, longer', '']);
    const later = join(root, 'later.ts');
    assert.equal(readSourceFile(later, { roots: [root] }), undefined);
    writeFileSync(later, 'export {};\n');
    assert.deepEqual(readSourceFile(later, { roots: [root] }), ['export {};', '']);
    rmSync(later);
    assert.equal(readSourceFile(later, { roots: [root] }), undefined);
  });

  // The source view reads any project file a client names, node_modules' too: 64 files of 2 MB held 230 MB.
  it('keeps at most 64 files and 16 Mi characters of them, however many large files are read', () => {
    clearSourceExcerptCache();
    const line = `export const text = '${'x'.repeat(60)}';\n`;
    const large = line.repeat(Math.floor((1.9 * 1024 * 1024) / line.length));
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `large-${i}.js`), large);
    for (let i = 0; i < 100; i++) writeFileSync(join(root, `small-${i}.js`), line);
    let largest = 0;
    for (let i = 0; i < 20; i++) {
      assert.equal(readSourceFile(join(root, `large-${i}.js`), { roots: [root] })?.length, large.split('\n').length);
      largest = Math.max(largest, sourceExcerptCacheSize().chars);
    }
    assert.ok(largest <= 16 * 1024 * 1024, `${largest} characters cached`);
    let most = 0;
    for (let i = 0; i < 100; i++) {
      readSourceExcerpt(join(root, `small-${i}.js`), 1, { roots: [root] });
      most = Math.max(most, sourceExcerptCacheSize().files);
    }
    assert.equal(most, 64);
  });
});

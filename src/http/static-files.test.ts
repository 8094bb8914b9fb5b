import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { staticFiles } from './static-files.js';

const project = mkdtempSync(join(tmpdir(), 'keel-static-root-'));
writeFileSync(join(project, 'notes.txt'), 'x');

describe('staticFiles', () => {
  after(() => rmSync(project, { recursive: true, force: true }));

  it('says which folder is missing, and where it was looked for, when the root does not exist', () => {
    for (const root of [join(project, 'pubic'), join(project, 'notes.txt', 'public')]) {
      assert.throws(() => staticFiles({ root, prefix: '/assets' }), { message: `staticFiles: the folder "${root}" does not exist (looked for at ${root}).` });
    }
    assert.throws(() => staticFiles({ root: join(project, 'notes.txt'), prefix: '/assets' }), { message: `staticFiles: "${join(project, 'notes.txt')}" is not a folder.` });
  });
});

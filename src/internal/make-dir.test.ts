import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeDirSync } from './make-dir.js';

describe('makeDirSync', () => {
  const root = mkdtempSync(join(tmpdir(), 'keel-make-dir-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('creates every missing folder, and accepts one that exists', () => {
    makeDirSync(join(root, 'a', 'b', 'c'));
    assert.ok(existsSync(join(root, 'a', 'b', 'c')));
    makeDirSync(join(root, 'a', 'b', 'c'));
  });

  it('fails with the reason the first missing folder cannot be made where recursive mkdir says ENOENT', () => {
    // What node does under a read-only mount: ENOENT from the recursive call, EROFS from a plain one.
    const attempts: string[] = [];
    const readOnly = {
      existsSync: (path: string) => path === '/srv/app/var' || path === '/srv/app' || path === '/srv' || path === '/',
      mkdirSync: (path: string, options?: { recursive?: boolean }) => {
        attempts.push(`${options?.recursive === true ? 'recursive' : 'plain'} ${path}`);
        throw Object.assign(new Error(`${options?.recursive === true ? 'ENOENT' : 'EROFS'}: mkdir '${path}'`), { code: options?.recursive === true ? 'ENOENT' : 'EROFS' });
      },
    } as unknown as Parameters<typeof makeDirSync>[1];
    assert.throws(() => makeDirSync('/srv/app/var/log/deep', readOnly), { code: 'EROFS', message: "EROFS: mkdir '/srv/app/var/log'" });
    assert.deepEqual(attempts, ['recursive /srv/app/var/log/deep', 'plain /srv/app/var/log']);
  });
});

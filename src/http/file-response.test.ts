import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileResponse } from './file-response.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-file-response-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fileNamed = (name: string): string => {
  const path = join(dir, name);
  writeFileSync(path, 'x');
  return path;
};

describe('fileResponse', () => {
  it('keeps a Cache-Control and an ETag the caller gives: a private download stays private', () => {
    const invoice = fileNamed('invoice.pdf');
    const given = fileResponse(invoice, { download: 'invoice.pdf', headers: { 'cache-control': 'private, no-store', ETag: '"v1"' } }).headers;
    assert.equal(given.get('cache-control'), 'no-store, private');
    assert.equal(given.get('etag'), '"v1"');
    const defaults = fileResponse(invoice).headers;
    assert.equal(defaults.get('cache-control'), 'public');
    assert.match(defaults.get('etag') ?? '', /^W\/"1-[0-9a-f]+"$/);
  });

  it('types a file by its extension alone: a file named like one has none', () => {
    for (const name of ['html', 'svg', 'js', '.htaccess']) assert.equal(fileResponse(fileNamed(name)).headers.get('content-type'), 'application/octet-stream', name);
    assert.equal(fileResponse(fileNamed('page.HTML')).headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('names a download whose name holds a lone surrogate (read from JSON) instead of failing', () => {
    const disposition = fileResponse(fileNamed('a.c'), { download: JSON.parse('"\\ud800.c"') as string }).headers.get('content-disposition');
    assert.equal(disposition, `attachment; filename="?.c"; filename*=UTF-8''%EF%BF%BD.c`);
  });

  it('answers a name holding a NUL byte, or a link that loops, with the 404 of a missing file', () => {
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    for (const path of [join(dir, 'a\0.txt'), join(dir, 'loop'), join(dir, 'loop', 'x.txt')]) {
      assert.throws(() => fileResponse(path), { status: 404, code: 'KEEL_ERR_FILE_NOT_FOUND' }, JSON.stringify(path));
    }
  });
});

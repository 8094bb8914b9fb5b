import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partsNamingAFile } from './multipart-file-parts.js';

const part = (headers: string, value: string) => `--B\r\n${headers}\r\n\r\n${value}\r\n`;

describe('partsNamingAFile', () => {
  it('tells, part by part, whether a form-data part names a file, an empty name included', () => {
    const body = Buffer.from(
      part('Content-Disposition: form-data; name="title"', 'Hello') +
        part('content-disposition: form-data; name="avatar"; filename=""\r\nContent-Type: application/octet-stream', '') +
        part('Content-Disposition: form-data; name="doc"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf', '%PDF') +
        part('Content-Disposition: form-data; name="a; filename=x"', 'quoted, no file') +
        part('Content-Type: text/plain', 'no disposition: skipped, as busboy skips it') +
        part('Content-Disposition: attachment; filename="x"', 'not form-data: skipped') +
        part('Content-Disposition: form-data; name="raw"\r\nContent-Type: application/octet-stream', 'bytes') +
        '--B--\r\n',
    );
    assert.deepEqual(partsNamingAFile('multipart/form-data; boundary=B', body), [false, true, true, false, false]);
    assert.deepEqual(partsNamingAFile('multipart/form-data; boundary="B"', body).length, 5);
  });

  it('gives what it read of a body cut short, and nothing without a boundary', () => {
    assert.deepEqual(partsNamingAFile('multipart/form-data; boundary=B', Buffer.from(`${part('Content-Disposition: form-data; name="a"; filename="f"', 'x')}--B\r\nContent-Disp`)), [true]);
    assert.deepEqual(partsNamingAFile('multipart/form-data', Buffer.from('--B\r\n')), []);
  });

  it('reads a quote left open as running to the end of its line, in time linear in its length', () => {
    const open = Buffer.from(part('Content-Disposition: form-data; name="a; filename=x', 'v') + part('Content-Disposition: form-data; name="b"; filename=""', '') + '--B--\r\n');
    assert.deepEqual(partsNamingAFile('multipart/form-data; boundary=B', open), [false, true]);
    const escapes = Buffer.from(part(`Content-Disposition: form-data; name=${'"\\'.repeat(300_000)}`, 'v') + '--B--\r\n');
    assert.deepEqual(partsNamingAFile('multipart/form-data; boundary=B', escapes), [false]);
  });
});

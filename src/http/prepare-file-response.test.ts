import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileResponse } from './file-response.js';
import { Request } from './request.js';
import { prepareResponse } from './response-listener.js';

const folder = mkdtempSync(join(tmpdir(), 'keel-file-range-'));
const file = join(folder, 'ten.bin');
writeFileSync(file, '0123456789');
const empty = join(folder, 'empty.bin');
writeFileSync(empty, '');

async function get(headers: Record<string, string>, path = file): Promise<[number, string | undefined, string | undefined, string]> {
  const response = prepareResponse(fileResponse(path), new Request({ method: 'GET', target: '/f', headers: { host: 'app.example.test', ...headers } }));
  let body = '';
  if (typeof response.body === 'string') body = response.body;
  else for await (const chunk of response.body as AsyncIterable<Uint8Array>) body += Buffer.from(chunk).toString('latin1');
  return [response.status, response.headers.get('content-range'), response.headers.get('content-length')?.toString(), body];
}

describe('prepareFileResponse', () => {
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('answers a suffix longer than the file with the whole file as its range (RFC 9110 §14.1.2)', async () => {
    assert.deepEqual(await get({ range: 'bytes=-500' }), [206, 'bytes 0-9/10', '10', '0123456789']);
    assert.deepEqual(await get({ range: 'bytes=-99999999999999999999' }), [206, 'bytes 0-9/10', '10', '0123456789']);
    assert.deepEqual(await get({ range: 'bytes= -11' }), [206, 'bytes 0-9/10', '10', '0123456789']);
    assert.deepEqual(await get({ range: 'bytes=-3' }), [206, 'bytes 7-9/10', '3', '789']);
    assert.deepEqual(await get({ range: 'bytes=-0' }), [416, 'bytes */10', undefined, '']);
  });

  it('ignores a Range in another unit, for an empty file too', async () => {
    assert.deepEqual(await get({ range: 'items=0-1' }), [200, undefined, '10', '0123456789']);
    assert.deepEqual(await get({ range: 'items=0-1' }, empty), [200, undefined, '0', '']);
    assert.deepEqual(await get({ range: 'bytes=0-1' }, empty), [416, 'bytes */0', undefined, '']);
    // A suffix of non-zero length is satisfiable even for an empty file (RFC 9110 §14.1.1): the empty whole.
    assert.deepEqual(await get({ range: 'bytes=-5' }, empty), [200, undefined, '0', '']);
    assert.deepEqual(await get({ range: 'bytes=-0' }, empty), [416, 'bytes */0', undefined, '']);
  });

  it('ignores a Range whose last byte comes before its first, as an invalid header, instead of answering 416', async () => {
    assert.deepEqual(await get({ range: 'bytes=5-2' }), [200, undefined, '10', '0123456789']);
    assert.deepEqual(await get({ range: 'bytes=0-1, 7-3' }), [200, undefined, '10', '0123456789']);
    // Past the end is unsatisfiable, not invalid: still a 416.
    assert.deepEqual(await get({ range: 'bytes=12-15' }), [416, 'bytes */10', undefined, '']);
  });

  it('answers 412 when If-Match names no current version, compared strongly, or If-Unmodified-Since is older than the file (RFC 9110 §13.2.2)', async () => {
    const { headers } = fileResponse(file);
    const [etag, lastModified] = [headers.get('etag')!, headers.get('last-modified')!];
    const failing: Record<string, string>[] = [{ 'if-match': '"other"' }, { 'if-match': etag }, { 'if-match': `"a", ${etag.slice(2)}` }, { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, { 'if-match': '"other"', range: 'bytes=0-1' }];
    for (const conditions of failing) {
      assert.deepEqual(await get(conditions), [412, undefined, undefined, ''], JSON.stringify(conditions));
    }
    // `*` holds while the file exists, and If-Match decides alone when both are sent; a date that is no date is ignored.
    const holding: Record<string, string>[] = [{ 'if-match': '*' }, { 'if-match': '*', 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, { 'if-unmodified-since': lastModified }, { 'if-unmodified-since': 'not a date' }, { 'if-unmodified-since': '2020' }];
    for (const conditions of holding) {
      assert.deepEqual(await get(conditions), [200, undefined, '10', '0123456789'], JSON.stringify(conditions));
    }
  });

  it('ignores an If-Modified-Since that is no HTTP-date, and reads the three forms RFC 9110 has recipients accept', async () => {
    for (const since of ['2099', '1', 'tomorrow']) assert.deepEqual(await get({ 'if-modified-since': since }), [200, undefined, '10', '0123456789'], since);
    for (const since of ['Fri, 01 Jan 2100 00:00:00 GMT', 'Friday, 01-Jan-49 00:00:00 GMT', 'Fri Jan  1 00:00:00 2100']) assert.equal((await get({ 'if-modified-since': since }))[0], 304, since);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFiles, readForm } from './read-body.js';
import { Request } from './request.js';

function post(body: Buffer, type: string): Request {
  return new Request({ method: 'POST', target: '/upload', headers: { host: 'localhost', 'content-type': type }, body });
}

// A browser's encoding of a form, by the platform's own FormData serialiser.
async function formRequest(form: FormData): Promise<Request> {
  const encoded = new globalThis.Response(form);
  return post(Buffer.from(await encoded.arrayBuffer()), encoded.headers.get('content-type')!);
}

describe('multipart/form-data bodies', () => {
  it('gives the text fields to readForm and the files to readFiles, in the order sent, from one parse', async () => {
    const form = new FormData();
    form.append('title', 'Quarterly report');
    form.append('tags', 'a');
    form.append('tags', 'b');
    form.append('attachments', new Blob(['id,name\n1,ada\n'], { type: 'text/csv' }), 'rapport été.csv');
    form.append('attachments', new Blob([new Uint8Array([0, 255, 1])]), 'C:\\Users\\ada\\raw.bin');
    const request = await formRequest(form);
    const fields = await readForm(request);
    assert.equal(fields.get('title'), 'Quarterly report');
    assert.deepEqual(fields.getAll('tags'), ['a', 'b']);
    const files = await readFiles(request);
    assert.deepEqual(
      files.map(({ field, filename, type, size }) => ({ field, filename, type, size })),
      [
        { field: 'attachments', filename: 'rapport été.csv', type: 'text/csv', size: 14 },
        // A client's path is reduced to the name, as getClientOriginalName() does.
        { field: 'attachments', filename: 'raw.bin', type: 'application/octet-stream', size: 3 },
      ],
    );
    assert.equal(files[0]!.data.toString(), 'id,name\n1,ada\n');
    assert.deepEqual([...files[1]!.data], [0, 255, 1]);
  });

  it('answers a body that is no well-formed multipart with a 400 saying why', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(100)]), 'a.txt');
    const whole = await formRequest(form);
    const bytes = await whole.body();
    const type = whole.header('content-type')!;
    for (const [body, contentType] of [
      [bytes.subarray(0, bytes.length - 20), type],
      [bytes, 'multipart/form-data'],
    ] as const) {
      await assert.rejects(readFiles(post(Buffer.from(body), contentType)), (error: { status?: number; code?: string; message?: string }) => {
        assert.equal(error.status, 400);
        assert.equal(error.code, 'KEEL_ERR_BAD_REQUEST');
        assert.match(error.message ?? '', /^Could not decode the multipart body: .+\.$/);
        return true;
      });
    }
  });

  it('keeps a field longer than a megabyte whole, a part without a file name a field, and an empty file input out', async () => {
    const long = 'x'.repeat(1_500_000);
    const boundary = 'keel-boundary';
    const part = (headers: string, value: string) => `--${boundary}\r\n${headers}\r\n\r\n${value}\r\n`;
    const body = Buffer.from(
      part('Content-Disposition: form-data; name="essay"', long) +
        part('Content-Disposition: form-data; name="raw"\r\nContent-Type: application/octet-stream', 'bytes') +
        part('Content-Disposition: form-data; name="avatar"; filename=""\r\nContent-Type: application/octet-stream', '') +
        `--${boundary}--\r\n`,
    );
    const request = post(body, `multipart/form-data; boundary=${boundary}`);
    const fields = await readForm(request);
    assert.equal(fields.get('essay')?.length, long.length);
    assert.equal(fields.get('raw'), 'bytes');
    assert.equal(fields.has('avatar'), false, 'an empty file input is no field either');
    assert.deepEqual(await readFiles(request), []);
  });

  it('leaves out a part without a name, as PHP does, and refuses a field in a charset it cannot decode', async () => {
    const part = (headers: string, value: string) => `--XX\r\n${headers}\r\n\r\n${value}\r\n`;
    const unnamed = Buffer.from(`${part('Content-Disposition: form-data; name="a"', 'kept')}${part('Content-Disposition: form-data', 'noname')}${part('Content-Disposition: form-data; filename="b.txt"', 'v')}--XX--\r\n`);
    const request = post(unnamed, 'multipart/form-data; boundary=XX');
    assert.deepEqual([...(await readForm(request))], [['a', 'kept']]);
    assert.deepEqual(await readFiles(request), []);
    const undecodable = Buffer.from(`${part('Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=foo-bar', 'hi')}--XX--\r\n`);
    await assert.rejects(readForm(post(undecodable, 'multipart/form-data; boundary=XX')), { status: 400, message: 'Could not decode the multipart body: the field "a" is in a charset that cannot be decoded.' });
  });

  it('reads no fields and no files from an empty body, as PHP does, with or without a boundary', async () => {
    for (const type of ['multipart/form-data; boundary=XX', 'multipart/form-data']) {
      const request = post(Buffer.alloc(0), type);
      assert.deepEqual([...(await readForm(request))], [], type);
      assert.deepEqual(await readFiles(request), [], type);
    }
  });

  it('refuses more than a thousand parts', async () => {
    const form = new FormData();
    for (let i = 0; i < 1001; i++) form.append(`f${i}`, 'x');
    await assert.rejects(readForm(await formRequest(form)), { status: 400, message: 'Could not decode the multipart body: more than 1000 parts.' });
  });

  it('finds no files in a body of another type', async () => {
    assert.deepEqual(await readFiles(post(Buffer.from('a=1'), 'application/x-www-form-urlencoded')), []);
    assert.equal((await readForm(post(Buffer.from('a=1'), 'application/x-www-form-urlencoded'))).get('a'), '1');
  });
});

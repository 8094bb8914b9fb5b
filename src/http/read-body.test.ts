import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readForm, readJson } from './read-body.js';
import { Request } from './request.js';

function post(body: string, type = 'application/json'): Request {
  return new Request({ method: 'POST', target: '/', headers: { host: 'localhost', 'content-type': type }, body: Buffer.from(body) });
}

describe('readJson', () => {
  it('answers the object or list the body holds', async () => {
    assert.deepEqual(await readJson(post('{"email":"a@b.test","tags":["x"]}')), { email: 'a@b.test', tags: ['x'] });
    assert.deepEqual(await readJson(post('[1,2]')), [1, 2]);
  });

  it('refuses with a 400 and the reference\'s messages a body that is empty, not JSON, or a scalar', async () => {
    for (const [body, message] of [
      ['', 'Request body is empty.'],
      ['{"email":', 'Could not decode request body.'],
      ['42', 'JSON content was expected to decode to an array, "int" returned.'],
      ['4.5', 'JSON content was expected to decode to an array, "float" returned.'],
      ['"x"', 'JSON content was expected to decode to an array, "string" returned.'],
      ['true', 'JSON content was expected to decode to an array, "bool" returned.'],
      ['null', 'JSON content was expected to decode to an array, "null" returned.'],
    ]) {
      await assert.rejects(readJson(post(body!)), { status: 400, code: 'KEEL_ERR_BAD_REQUEST', message }, body);
    }
  });

  it('lets the body\'s own failure through: a 413 stays a 413', async () => {
    const tooLarge = Object.assign(new Error('The request body exceeds 10 bytes.'), { status: 413 });
    const request = new Request({ method: 'POST', target: '/', headers: { host: 'localhost' }, body: { read: () => Promise.reject(tooLarge) } });
    await assert.rejects(readJson(request), tooLarge);
  });
});

describe('readForm', () => {
  it('reads a urlencoded form, and nothing from another content type', async () => {
    assert.equal((await readForm(post('email=a%40b.test&x=1', 'application/x-www-form-urlencoded; charset=UTF-8'))).get('email'), 'a@b.test');
    assert.equal([...(await readForm(post('{"email":"a@b.test"}'))).keys()].length, 0);
  });
});

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

  it('refuses, as json_decode does, bytes that are no UTF-8, a leading BOM and nesting deeper than 512', async () => {
    const invalid = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]);
    for (const body of [invalid.toString('latin1'), '\ufeff{}', `${'['.repeat(513)}${']'.repeat(513)}`]) {
      const request = new Request({ method: 'POST', target: '/', headers: { host: 'localhost', 'content-type': 'application/json' }, body: Buffer.from(body, body === invalid.toString('latin1') ? 'latin1' : 'utf8') });
      await assert.rejects(readJson(request), { status: 400, message: 'Could not decode request body.' });
    }
    assert.equal((await readJson(post(`${'['.repeat(512)}${']'.repeat(512)}`))).length, 1);
    // Brackets inside strings, escaped quotes included, are no nesting.
    assert.deepEqual(await readJson(post(`{"a":"\\"${'['.repeat(600)}"}`)), { a: `"${'['.repeat(600)}` });
  });

  it('keeps the digits of an integer no number holds exactly, as a string, where JSON.parse rounded it', async () => {
    const body = '{"id":12345678901234567891,"ids":[-9007199254740993,9007199254740991],"big":1.0e20,"float":12345678901234567891.0,"in":"12345678901234567891 [","x":[0]}';
    assert.deepEqual(await readJson(post(body)), { id: '12345678901234567891', ids: ['-9007199254740993', 9007199254740991], big: 1e20, float: 12345678901234567000, in: '12345678901234567891 [', x: [0] });
    await assert.rejects(readJson(post('12345678901234567891')), { status: 400, message: 'JSON content was expected to decode to an array, "string" returned.' });
    // A token JSON refuses stays refused: quoting never makes a body valid.
    await assert.rejects(readJson(post('[012345678901234567891]')), { status: 400, message: 'Could not decode request body.' });
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

  it('reads the escaped bytes of a urlencoded form in the charset its Content-Type names, UTF-8 without one', async () => {
    const latin1 = await readForm(post('name=Ren%E9+Fran%E7ois&city=K%F6ln', 'application/x-www-form-urlencoded; charset=ISO-8859-1'));
    assert.deepEqual([...latin1], [['name', 'René François'], ['city', 'Köln']]);
    assert.equal((await readForm(post('name=%E9', 'application/x-www-form-urlencoded; charset="latin1"'))).get('name'), 'é');
    assert.equal((await readForm(post('name=%93%FA', 'application/x-www-form-urlencoded; charset=Shift_JIS'))).get('name'), '日');
    assert.equal((await readForm(post('name=Ren%C3%A9', 'application/x-www-form-urlencoded'))).get('name'), 'René');
    for (const charset of ['no-such-charset', 'UTF-16LE']) {
      assert.equal((await readForm(post('name=Ren%C3%A9', `application/x-www-form-urlencoded; charset=${charset}`))).get('name'), 'René', charset);
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { Request } from '../../http/request.js';
import { collectRequestContent, requestContentText } from './request-content.js';

// A request whose body the application has read, as a controller's readJson() or body() leaves it.
async function readRequest(type: string, body: string | Buffer): Promise<Request> {
  const bytes = Buffer.from(body);
  const request = new Request({ method: 'POST', target: '/api', headers: { 'content-type': type, 'content-length': String(bytes.length) }, body: async () => bytes });
  await request.body();
  return request;
}

describe('collectRequestContent', () => {
  it('keeps a JSON body with its secret-named values masked, shown pretty-printed', async () => {
    const request = await readRequest('application/json; charset=utf-8', '{"user":{"name":"ada","password":"hunter2"},"apiKey":"k","tags":["a"]}');
    const content = collectRequestContent(request);
    const masked = { user: { name: 'ada', password: '******' }, apiKey: '******', tags: ['a'] };
    assert.deepEqual(content, { json: JSON.stringify(masked) });
    assert.equal(requestContentText(content), JSON.stringify(masked, null, 4));
  });

  // The profiler keeps its newest 500 records in memory: printed, a body of 64 KiB could take a MiB in each.
  it('keeps a JSON body compact, whatever its pretty-printed size', async () => {
    const body = `[[[[[[[${Array(32_000).fill('0').join(',')}]]]]]]]`;
    const content = collectRequestContent(await readRequest('application/json', body));
    assert.ok(content !== undefined && 'json' in content);
    assert.equal(content.json.length, body.length);
    assert.ok(requestContentText(content).length > 10 * body.length);
  });

  it('reads +json types as JSON, and withholds one nested too deep to be masked without failing', async () => {
    assert.deepEqual(collectRequestContent(await readRequest('application/merge-patch+json', '{"token":"t"}')), { json: '{"token":"******"}' });
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    assert.deepEqual(collectRequestContent(await readRequest('application/json', deep)), { withheld: 'tooDeep', bytes: 40_000 });
  });

  // 32 arrays 1 000 deep fit in 64 KiB and printed 128 MB of indentation. A child process with a small heap
  // collects it, so that a regression fails the test instead of holding the suite's memory and time.
  it('withholds a JSON body whose pretty-printed indentation alone would be huge, and shows a nested one', async () => {
    const script = `
      import { Request } from ${JSON.stringify(new URL('../../http/request.ts', import.meta.url).href)};
      import { collectRequestContent } from ${JSON.stringify(new URL('./request-content.ts', import.meta.url).href)};
      const deep = '['.repeat(1_000) + ']'.repeat(1_000);
      const bytes = Buffer.from('[' + Array(32).fill(deep).join(',') + ']');
      const request = new Request({ method: 'POST', target: '/api', headers: { 'content-type': 'application/json' }, body: async () => bytes });
      await request.body();
      process.stdout.write(JSON.stringify(collectRequestContent(request)));`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=96', '--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.signal, null, 'the collector did not end within 20 s');
    assert.equal(child.stdout, JSON.stringify({ withheld: 'tooDeep', bytes: 64_033 }), child.stderr.slice(-500));
    // 100 levels and 1 000 objects side by side are ordinary bodies.
    const nested = `${'{"a":'.repeat(100)}{"password":"x"}${'}'.repeat(100)}`;
    const shown = collectRequestContent(await readRequest('application/json', nested));
    assert.ok(shown !== undefined && 'json' in shown && requestContentText(shown).includes('"password": "******"'));
    const wide = JSON.stringify(Array.from({ length: 1_000 }, (_, id) => ({ id, tags: ['a', 'b'], owner: { name: 'ada' } })));
    assert.ok('json' in (collectRequestContent(await readRequest('application/json', wide)) ?? {}));
  });

  it('shows other text as sent, unless it names something like a secret, which free text cannot mask', async () => {
    assert.deepEqual(collectRequestContent(await readRequest('text/plain', 'hello <b>world</b>')), { text: 'hello <b>world</b>' });
    assert.deepEqual(collectRequestContent(await readRequest('application/xml', '<login><passwd>x</passwd></login>')), { withheld: 'secret', bytes: 33 });
    // Not valid JSON: read as text, with the same caution.
    assert.deepEqual(collectRequestContent(await readRequest('application/json', '{"password": ')), { withheld: 'secret', bytes: 13 });
  });

  it('says why it shows nothing of a binary, too large, form or unread body, and nothing without a body', async () => {
    assert.deepEqual(collectRequestContent(await readRequest('application/octet-stream', Buffer.from([0, 1, 2]))), { withheld: 'binary', bytes: 3 });
    assert.deepEqual(collectRequestContent(await readRequest('text/plain', 'a'.repeat(64 * 1024 + 1))), { withheld: 'tooLarge', bytes: 64 * 1024 + 1 });
    assert.deepEqual(collectRequestContent(await readRequest('application/x-www-form-urlencoded', 'a=1')), { withheld: 'form', bytes: 3 });
    let reads = 0;
    const unread = new Request({ method: 'POST', target: '/api', headers: { 'content-type': 'application/json', 'content-length': '12' }, body: async () => (reads++, Buffer.from('{"a":"b"}')) });
    assert.deepEqual(collectRequestContent(unread), { withheld: 'unread', bytes: 12 });
    assert.equal(reads, 0, 'the profiler reads no body itself');
    assert.equal(collectRequestContent(new Request({ method: 'GET', target: '/' })), undefined);
  });
});

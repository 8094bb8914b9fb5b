import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { readFiles, readForm } from '../../src/http/read-body.js';
import type { Request } from '../../src/http/request.js';
import { Response } from '../../src/http/response.js';
import { createLogger } from '../../src/logging/create-logger.js';

describe('file uploads over TCP (prod mode)', () => {
  let project = '';
  let app: App;
  let base = '';

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'keel-uploads-'));
    const config = loadConfig({ cwd: project, env: { APP_ENV: 'prod', BODY_LIMIT: '64k' } });
    const logger = createLogger({ env: config.env, debug: config.debug, stderr: false, destination: { write: () => undefined } });
    const upload = async (request: Request) => {
      const fields = await readForm(request);
      const files = await readFiles(request);
      return Response.json({ title: fields.get('title'), files: files.map(({ field, filename, size }) => ({ field, filename, size })) });
    };
    app = createApp({ config, logger, routes: [{ name: 'upload', path: '/upload', methods: ['POST'], controller: upload }] });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
  });
  after(async () => {
    await app.close();
    await rm(project, { recursive: true, force: true });
  });

  it('reads the fields and files a browser sends', async () => {
    const form = new FormData();
    form.append('title', 'Holiday');
    form.append('photo', new Blob([new Uint8Array(2048)], { type: 'image/png' }), 'beach.png');
    const response = await fetch(`${base}/upload`, { method: 'POST', body: form });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { title: 'Holiday', files: [{ field: 'photo', filename: 'beach.png', size: 2048 }] });
  });

  it('answers a cut-short body with 400, one past BODY_LIMIT with 413, and keeps serving', async () => {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(1024)]), 'a.png');
    const encoded = new globalThis.Response(form);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const type = encoded.headers.get('content-type')!;
    const cut = await fetch(`${base}/upload`, { method: 'POST', body: bytes.subarray(0, bytes.length - 30), headers: { 'content-type': type } });
    assert.equal(cut.status, 400);
    const big = new FormData();
    big.append('photo', new Blob([new Uint8Array(100 * 1024)]), 'big.png');
    assert.equal((await fetch(`${base}/upload`, { method: 'POST', body: big })).status, 413);
    assert.equal((await fetch(`${base}/upload`, { method: 'POST', body: form })).status, 200);
  });
});

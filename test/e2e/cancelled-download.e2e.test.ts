import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Response } from '../../src/http/response.js';
import { startDemo, type RunningDemo } from '../helpers/start-demo.js';

describe('downloads their clients cancel', () => {
  let demo: RunningDemo;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);

  before(async () => {
    let file = '';
    demo = await startDemo({ APP_ENV: 'prod' }, [{ name: 'download', path: '/download', controller: () => new Response(createReadStream(file)) }]);
    file = join(demo.projectDir, 'large.bin');
    writeFileSync(file, Buffer.alloc(20_000_000));
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    await demo.close();
  });

  it('end with their connection, without a listener-leak warning, and the server keeps serving', async () => {
    for (let i = 0; i < 3; i++) {
      const socket = connect(demo.port, '127.0.0.1', () => socket.write('GET /download HTTP/1.1\r\nHost: app.example.test\r\n\r\n'));
      socket.on('error', () => undefined);
      // Reset as the first bytes arrive, while the server is still writing the body.
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.resetAndDestroy();
    }
    // A request after them: the server has met the three resets by the time it answers (a warning is emitted a tick later).
    const status = await fetch(`http://127.0.0.1:${demo.port}/api/status`, { headers: { accept: 'application/json' } });
    assert.equal(status.status, 200);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, []);
  });
});

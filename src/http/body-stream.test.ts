import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { discardBodyStream } from './body-stream.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('discardBodyStream', () => {
  // Unhandled, such an error would end the process, and the test runner reports it as this test's failure.
  it('lets go of a file stream whose file is missing, without its error escaping', async () => {
    const stream = createReadStream(join(import.meta.dirname, 'no-such-file.csv'));
    discardBodyStream(stream);
    await settle();
    assert.equal(stream.destroyed, true);
  });

  it('lets go of a node stream whose destroy reports an error', async () => {
    const stream = new Readable({ read() {}, destroy: (_error, callback) => callback(new Error('cleanup failed')) });
    discardBodyStream(stream);
    await settle();
    assert.equal(stream.destroyed, true);
  });

  it('cancels a web stream, and ends an async generator without running it', async () => {
    let cancelled = false;
    discardBodyStream(new ReadableStream({ cancel: () => void (cancelled = true) }));
    let ran = false;
    discardBodyStream((async function* () {
      ran = true;
      yield 'x';
    })());
    await settle();
    assert.deepEqual({ cancelled, ran }, { cancelled: true, ran: false });
  });
});

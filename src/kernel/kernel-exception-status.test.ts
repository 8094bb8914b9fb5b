import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '../http/http-exception.js';
import { Response } from '../http/response.js';
import { get, kernelWithController } from './kernel.fixture.js';

/** The status of the response an exception listener answers `error` with, having chosen `chosen`. */
async function statusFor(error: Error, chosen: number): Promise<number> {
  const kernel = kernelWithController(() => {
    throw error;
  });
  kernel.dispatcher.on('exception', (event) => event.setResponse(new Response('', chosen)));
  return (await kernel.handle(get())).status;
}

describe('Kernel, when an exception listener answers with a status of its own', () => {
  it('keeps a redirect status, a redirect as Symfony\'s isRedirect() says: 201 is one', async () => {
    for (const chosen of [201, 301, 302, 303, 307, 308]) assert.equal(await statusFor(new TypeError('broken'), chosen), chosen);
  });

  it('replaces a 3xx that is no redirect (300, 304, 305) with the error\'s status, as the reference does', async () => {
    for (const chosen of [300, 304, 305]) assert.equal(await statusFor(new TypeError('broken'), chosen), 500);
    assert.equal(await statusFor(new HttpException(409, { message: 'taken' }), 304), 409);
  });
});

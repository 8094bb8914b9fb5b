import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpException } from '../http/http-exception.js';
import { Response } from '../http/response.js';
import { get, kernelWithController } from './kernel.fixture.js';

describe('Kernel', () => {
  describe('when the controller returns something no view listener answers', () => {
    it('fails with KEEL_ERR_CONTROLLER_RESULT when no view listener answers', async () => {
      const kernel = kernelWithController(() => 42);
      await assert.rejects(kernel.handle(get(), { catch: false }), (error: HttpException) => {
        assert.equal(error.code, 'KEEL_ERR_CONTROLLER_RESULT');
        assert.match(error.message, /must return a "Response" object or data to send as JSON, but it returned a number \(42\)\.$/);
        return true;
      });
    });

    it('names the controller and its route, and the usual cause of a controller that returned nothing', async () => {
      const kernel = kernelWithController(function listNotes() {});
      const request = get();
      request.attributes.route = 'notes';
      await assert.rejects(kernel.handle(request, { catch: false }), (error: HttpException) => {
        assert.equal(error.message, 'The controller "listNotes" of route "notes" must return a "Response" object or data to send as JSON, but it returned undefined. Did you forget a return statement?');
        return true;
      });
      const bare = kernelWithController(() => Object.create(null) as object);
      await assert.rejects(bare.handle(get(), { catch: false }), /but it returned an object with no prototype\.$/);
    });

    it("describes what the controller returned as Symfony's message does: a string quoted and cut at 255 characters, a function by its name only", async () => {
      const described = async (result: unknown): Promise<string> => {
        const error = await kernelWithController(() => result).handle(get(), { catch: false }).then(() => undefined, (failure: unknown) => failure);
        return (error as HttpException).message.replace(/^.* but it returned /, '');
      };
      assert.equal(await described('done'), 'a string ("done").');
      assert.equal(await described('x'.repeat(300)), `a string ("${'x'.repeat(255)}...").`);
      assert.equal(await described(true), 'a boolean value (true).');
      assert.equal(await described(['a', 'b']), 'an array ([0 => ..., 1 => ...]).');
      assert.equal(await described(function render() { return new Response('x'); }), 'a function (render).');
      assert.equal(await described(() => new Response('x')), 'an anonymous function.');
    });

    it("names a Response of the fetch API, the global one a controller gets when it forgets to import keel's", async () => {
      const error = await kernelWithController(() => new globalThis.Response('hi')).handle(get(), { catch: false }).then(() => undefined, (failure: unknown) => failure);
      assert.match((error as HttpException).message, /but it returned a Response of the fetch API \(the global one\): return keel's, imported from 'keel'\.$/);
    });
  });
});

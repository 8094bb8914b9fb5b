import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kernel } from '../kernel/kernel.js';
import { Request } from './request.js';
import { JsonViewListener } from './json-view-listener.js';

function kernelReturning(result: unknown): Kernel {
  const kernel = new Kernel();
  kernel.dispatcher.on('request', (event) => void (event.request.attributes.controller = () => result), 64);
  kernel.dispatcher.addSubscriber(new JsonViewListener());
  return kernel;
}

describe('JsonViewListener', () => {
  it('sends plain data as JSON: an object, a list, and a record without prototype (a parsed cookie header)', async () => {
    const cookies = Object.assign(Object.create(null) as Record<string, string>, { theme: 'dark' });
    for (const [result, body] of [[{ ok: true }, '{"ok":true}'], [[1, 2], '[1,2]'], [cookies, '{"theme":"dark"}']] as const) {
      const response = await kernelReturning(result).handle(new Request({ method: 'GET', target: '/' }));
      assert.equal(response.status, 200);
      assert.equal(response.body, body);
      assert.equal(response.headers.get('content-type'), 'application/json');
    }
  });

  it('leaves an instance of a class to the controller result error: it is no plain data', async () => {
    await assert.rejects(kernelReturning(new (class Note {})()).handle(new Request({ method: 'GET', target: '/' })), { code: 'KEEL_ERR_CONTROLLER_RESULT', message: /returned an object of type Note\.$/ });
  });
});

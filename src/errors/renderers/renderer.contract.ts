import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException, MethodNotAllowedHttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { createFlatError } from '../flat-error.js';
import type { Renderer } from './renderer.js';

const SECRET = 'db password is hunter2';

/** What every Renderer promises; each implementation's test file runs this suite. */
export function describeRendererContract(name: string, create: () => Renderer): void {
  describe(`${name} (Renderer contract)`, () => {
    const request = new Request({ method: 'GET', target: '/x' });

    it('answers the status of the error', () => {
      const flat = createFlatError(new HttpException(418, { message: 'teapot' }));
      assert.equal(create().render(flat, { request, debug: false }).status, 418);
    });

    it("carries the error's own headers", () => {
      const flat = createFlatError(new MethodNotAllowedHttpException(['GET', 'HEAD'], 'nope'));
      assert.ok(create().render(flat, { request, debug: false }).headers.some(([n, v]) => n === 'Allow' && v === 'GET, HEAD'));
    });

    it('adds the debug headers in debug only', () => {
      const flat = createFlatError(new Error('x'), { debug: true });
      const has = (debug: boolean) => create().render(flat, { request, debug }).headers.some(([n]) => n === 'X-Debug-Exception');
      assert.equal(has(true), true);
      assert.equal(has(false), false);
    });

    it('never shows the message or the class of an error outside debug', () => {
      const rendered = create().render(createFlatError(new TypeError(SECRET)), { request, debug: false });
      assert.ok(!rendered.body.includes(SECRET));
      assert.ok(!rendered.body.includes('TypeError'));
      assert.ok(!rendered.headers.some(([, value]) => value.includes('hunter2')));
    });

    it('sets exactly one Content-Type', () => {
      const rendered = create().render(createFlatError(new Error('x')), { request, debug: true });
      assert.equal(rendered.headers.filter(([n]) => n.toLowerCase() === 'content-type').length, 1);
    });
  });
}

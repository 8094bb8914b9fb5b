import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundHttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { stringifyProfile } from '../profile-json.js';
import { createTestProfile } from '../profile-store.contract.js';
import { ExceptionCollector } from './exception-collector.js';

function failure(path: string): NotFoundHttpException {
  return new NotFoundHttpException(`No route found for "GET ${path}"`, { cause: new RangeError(`No routes found for "${path}".`), code: 'KEEL_ERR_ROUTE_NOT_FOUND' });
}

describe('ExceptionCollector', () => {
  const collector = new ExceptionCollector();
  const request = new Request({ method: 'GET', target: '/robots.txt' });

  it('is written by the store as JSON.stringify writes it, chain, codes and frames included', () => {
    const data = collector.collect(request, new Response(), failure('/robots.txt'));
    const profile = createTestProfile('000001', { collectors: { exception: data } });
    assert.equal(stringifyProfile(profile), JSON.stringify(profile));
    const written = JSON.parse(stringifyProfile(profile)).collectors.exception;
    assert.deepEqual(written.chain.map((link: { className: string; code?: string }) => [link.className, link.code]), [['NotFoundHttpException', 'KEEL_ERR_ROUTE_NOT_FOUND'], ['RangeError', undefined]]);
    assert.ok(written.chain[0].trace.length > 0);
  });

  // Errors of one code path share their frame lists: the text of a list made for one must never carry
  // another error's own fields.
  it('writes each error of a code path with its own message and the frames they share', () => {
    const texts = ['/a', '/b'].map((path) => stringifyProfile(createTestProfile('000002', { collectors: { exception: collector.collect(request, new Response(), failure(path)) } })));
    const [a, b] = texts.map((text) => JSON.parse(text).collectors.exception.chain);
    assert.equal(a[0].message, 'No route found for "GET /a"');
    assert.equal(b[0].message, 'No route found for "GET /b"');
    assert.equal(b[1].message, 'No routes found for "/b".');
    assert.deepEqual(a[0].trace, b[0].trace);
  });

  it('records a thrown value that is no object, and nothing for a request that did not fail', () => {
    const profile = createTestProfile('000003', { collectors: { exception: collector.collect(request, new Response(), 'plain text thrown') } });
    assert.equal(stringifyProfile(profile), JSON.stringify(profile));
    assert.deepEqual(collector.collect(request, new Response(), undefined), { chain: [] });
  });
});

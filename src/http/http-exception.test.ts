import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException, MethodNotAllowedHttpException, TooManyRequestsHttpException } from './http-exception.js';

describe('HttpException', () => {
  it('refuses, where it is made, a status its answer could not have', () => {
    for (const status of [0, 99, 600, 999, 404.5, Number.NaN]) assert.throws(() => new HttpException(status), { name: 'RangeError', message: `The HTTP status code "${status}" is not valid.` });
    // An interim status cannot be the final answer node writes.
    assert.throws(() => new HttpException(103), { name: 'RangeError', message: 'The HTTP status code "103" is informational and cannot end a response.' });
    for (const status of [200, 302, 418, 599]) assert.equal(new HttpException(status).status, status);
  });

  it('refuses a header name that is no token, which no answer could carry', () => {
    assert.throws(() => new HttpException(418, { headers: { 'X Tea': 'green' } }), { name: 'TypeError', message: /^Invalid header name "X Tea"/ });
    assert.throws(() => new TooManyRequestsHttpException(30, 'slow', { headers: { 'Retry After:': '1' } }), TypeError);
  });
});

describe('MethodNotAllowedHttpException', () => {
  it('writes Allow as Symfony does: upper case, after the headers given, replacing one of theirs', () => {
    const error = new MethodNotAllowedHttpException(['get', 'Post'], 'no', { headers: { 'X-Reason': 'read-only', Allow: 'DELETE' } });
    assert.deepEqual(Object.entries(error.headers), [
      ['X-Reason', 'read-only'],
      ['Allow', 'GET, POST'],
    ]);
    assert.deepEqual(error.allow, ['get', 'Post']);
  });
});

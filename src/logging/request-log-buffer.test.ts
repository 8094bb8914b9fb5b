import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestLogBuffer } from './request-log-buffer.js';

const INFO = 1;
const ERROR = 4;

describe('RequestLogBuffer', () => {
  it("holds a request's records back until one at the action level, then writes them in order and lets the rest through", () => {
    const buffer = new RequestLogBuffer<string>({ actionLevel: ERROR });
    const request = {};
    assert.deepEqual(buffer.offer(request, INFO, 'matched'), []);
    assert.deepEqual(buffer.offer(request, INFO, 'calling'), []);
    assert.deepEqual(buffer.offer(request, ERROR, 'failed'), ['matched', 'calling', 'failed']);
    assert.deepEqual(buffer.offer(request, INFO, 'after'), ['after']);
  });

  it('keeps each request apart, and never holds back records logged outside a request', () => {
    const buffer = new RequestLogBuffer<string>({ actionLevel: ERROR });
    const quiet = {};
    const failing = {};
    buffer.offer(quiet, INFO, 'quiet');
    buffer.offer(failing, INFO, 'before');
    assert.deepEqual(buffer.offer(failing, ERROR, 'failed'), ['before', 'failed']);
    assert.deepEqual(buffer.offer(undefined, INFO, 'listening'), ['listening']);
    assert.deepEqual(buffer.offer(quiet, INFO, 'still quiet'), []);
  });

  it('keeps only the newest `size` records of a request', () => {
    const buffer = new RequestLogBuffer<number>({ actionLevel: ERROR, size: 3 });
    const request = {};
    for (let i = 1; i <= 5; i++) buffer.offer(request, INFO, i);
    assert.deepEqual(buffer.offer(request, ERROR, 6), [3, 4, 5, 6]);
  });
});

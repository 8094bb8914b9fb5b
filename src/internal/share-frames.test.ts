import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareFrames } from './share-frames.js';

function made(): [Error, Error] {
  const source = new Error('first\nline two of the message');
  Error.stackTraceLimit = 0;
  try {
    return [source, new TypeError('second')];
  } finally {
    Error.stackTraceLimit = 10;
  }
}

describe('shareFrames', () => {
  it("gives the target the source's frames under its own header, the first `skip` left out", () => {
    const [source, target] = made();
    shareFrames(source, target, { skip: 1 });
    const frames = source.stack!.split('\n    at ').slice(1);
    assert.ok(frames.length > 2);
    assert.equal(target.stack, ['TypeError: second', ...frames.slice(1)].join('\n    at '));
    const [, whole] = made();
    shareFrames(source, whole);
    assert.equal(whole.stack, ['TypeError: second', ...frames].join('\n    at '));
  });

  it('leaves the target no frames when the source has no more than it skips', () => {
    const [source, target] = made();
    shareFrames(source, target, { skip: 50 });
    assert.equal(target.stack, 'TypeError: second');
  });

  it("captures the target's own frames when the source's stack is in another format", () => {
    const original = Error.prepareStackTrace;
    Error.prepareStackTrace = (error: Error) => `custom stack of ${error.message}`;
    let source: Error;
    try {
      source = new Error('s');
      // V8 formats a stack when it is first read.
      assert.equal(source.stack, 'custom stack of s');
    } finally {
      Error.prepareStackTrace = original;
    }
    const [, target] = made();
    shareFrames(source, target, { skip: 1 });
    assert.match(target.stack!, /^TypeError: second\n {4}at .*share-frames\.test\.ts/);
  });

  it('captures its own frames when reading the source throws', () => {
    const source = new Error('s');
    Object.defineProperty(source, 'stack', {
      get() {
        throw new Error('no stack');
      },
    });
    const [, target] = made();
    shareFrames(source, target);
    assert.match(target.stack!, /share-frames\.test\.ts/);
  });
});

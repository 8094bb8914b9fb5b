import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StackFrame } from '../stack-frame.js';
import { type ExcerptReader, renderTraceLine } from './trace.js';

const FRAME: StackFrame = Object.freeze({ function: 'RouterListener.onRequest', file: fileURLToPath(import.meta.url), line: 12, column: 5, inApp: true });
const readExcerpt: ExcerptReader = (_file, line) => [{ number: line, text: 'const error = new NotFoundHttpException();', selected: true }];

describe('a trace line', () => {
  it('is opened on its source when it may be, closed otherwise', () => {
    const opened = renderTraceLine(FRAME, readExcerpt, undefined, true);
    const closed = renderTraceLine(FRAME, readExcerpt, undefined, false);
    assert.equal(opened.open, true);
    assert.equal(closed.open, false);
    assert.notEqual(opened.html, closed.html);
    assert.match(opened.html, /NotFoundHttpException/);
  });

  // An error and its cause share frames: the router's 404 frame is opened in the outer trace and closed in
  // the cause's, on every page. Each state's markup is kept, not rendered again each time the other was.
  it('keeps the markup of both states of a frame shown opened in one trace and closed in the next', () => {
    const opened = renderTraceLine(FRAME, readExcerpt, undefined, true);
    const closed = renderTraceLine(FRAME, readExcerpt, undefined, false);
    assert.equal(renderTraceLine(FRAME, readExcerpt, undefined, true), opened);
    assert.equal(renderTraceLine(FRAME, readExcerpt, undefined, false), closed);
  });

  it('is rendered again when its source lines changed', () => {
    let source = 'const error = new NotFoundHttpException();';
    const editable: ExcerptReader = (_file, line) => [{ number: line, text: source, selected: true }];
    const before = renderTraceLine(FRAME, editable, undefined, true);
    source = 'const error = new MethodNotAllowedHttpException();';
    const after = renderTraceLine(FRAME, editable, undefined, true);
    assert.match(after.html, /MethodNotAllowedHttpException/);
    assert.notEqual(after.html, before.html);
  });
});

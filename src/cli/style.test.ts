import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStyle } from './style.js';

describe('createStyle', () => {
  it('colours text written to a terminal', () => {
    const style = createStyle({ isTTY: true }, {});
    assert.equal(style.enabled, true);
    assert.equal(style.red('error:'), '\u001b[31merror:\u001b[39m');
  });

  it('never colours when NO_COLOR is set, even on a terminal', () => {
    const style = createStyle({ isTTY: true }, { NO_COLOR: '1' });
    assert.equal(style.enabled, false);
    assert.equal(style.bold('Name'), 'Name');
  });

  it('ignores an empty NO_COLOR, as no-color.org says', () => {
    assert.equal(createStyle({ isTTY: true }, { NO_COLOR: '' }).enabled, true);
  });

  it('never colours a pipe or a file', () => {
    assert.equal(createStyle({ isTTY: false }, {}).green('ok'), 'ok');
    assert.equal(createStyle({}, {}).enabled, false);
  });
});

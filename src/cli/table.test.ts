import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStyle } from './style.js';
import { renderDefinitionList, renderTable } from './table.js';

const plain = createStyle({ isTTY: false }, {});

describe('renderTable', () => {
  it('pads every column to its widest cell and leaves no trailing spaces', () => {
    const text = renderTable(['Name', 'Path'], [['home', '/'], ['item_edit', '/items/{id}']], plain);
    assert.equal(text, 'Name       Path\n---------  -----------\nhome       /\nitem_edit  /items/{id}\n');
  });

  it('prints the header and rule alone for an empty table', () => {
    assert.equal(renderTable(['Token'], [], plain), 'Token\n-----\n');
  });
});

describe('renderDefinitionList', () => {
  it('aligns values and indents the continuation lines of a multi-line value', () => {
    const text = renderDefinitionList([['Path', '/a'], ['Headers', 'host: x\naccept: */*'], ['Host Regex', '']], plain);
    assert.equal(text, 'Path        /a\nHeaders     host: x\n            accept: */*\nHost Regex\n');
  });
});

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

  it('measures cells in terminal columns: a CJK character takes two, a combining accent none', () => {
    const text = renderTable(['Name', 'Method'], [['商品', 'GET'], ['cafe\u0301', 'POST'], ['plain_route', 'GET']], plain);
    assert.equal(text, 'Name         Method\n-----------  ------\n商品         GET\ncafe\u0301         POST\nplain_route  GET\n');
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerText } from './header-text.js';

describe('headerText', () => {
  it('keeps a leading byte-order mark the client sent as part of the text', () => {
    assert.equal(headerText('\u00ef\u00bb\u00bfcaf\u00c3\u00a9'), '\ufeffcafé');
  });

  it('reads the UTF-8 bytes node:http decoded one per character', () => {
    assert.equal(headerText(Buffer.from('https://ex.test/café?q=ü', 'utf8').toString('latin1')), 'https://ex.test/café?q=ü');
  });

  it('leaves ASCII, and bytes that are no UTF-8, as they are', () => {
    assert.equal(headerText('plain'), 'plain');
    assert.equal(headerText('caf\xe9'), 'caf\xe9');
  });
});

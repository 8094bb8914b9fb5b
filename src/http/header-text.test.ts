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

  it('leaves ASCII as it is, and keeps each byte that is no UTF-8 as U+DC00 plus the byte', () => {
    assert.equal(headerText('plain'), 'plain');
    assert.equal(headerText('caf\xe9'), 'caf\udce9');
    const text = (bytes: number[]) => headerText(Buffer.from(bytes).toString('latin1'));
    // Valid sequences around invalid bytes are read; a truncated sequence, an overlong form, an encoded
    // surrogate and a lead byte past U+10FFFF are bytes.
    assert.equal(text([0x61, 0xff, 0xc3, 0xa9, 0xfe]), 'a\udcffé\udcfe');
    assert.equal(text([0xe2, 0x82, 0x41]), '\udce2\udc82A');
    assert.equal(text([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf5, 0x80]), '\udcc0\udcaf\udced\udca0\udc80\udcf5\udc80');
    assert.equal(text([0xf0, 0x9f, 0x98, 0x80, 0x80]), '😀\udc80');
  });
});

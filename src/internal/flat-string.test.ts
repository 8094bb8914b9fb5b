import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flatString } from './flat-string.js';

describe('flatString', () => {
  it('keeps the text exactly, non-Latin-1 characters and lone surrogates included', () => {
    let built = '';
    for (let i = 0; i < 500; i++) built += `<li>${i} › \ud800 "q" \\ </li>`;
    assert.equal(flatString(built), built);
    assert.equal(flatString(''), '');
  });
});

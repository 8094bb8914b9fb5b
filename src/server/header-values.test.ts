import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeHeaderValue, sanitizeHeaderValues } from './header-values.js';

describe('sanitizeHeaderValue', () => {
  it('encodes control characters every time, and lets valid values through as they are, however often seen', () => {
    const valid = 'text/html; charset=UTF-8';
    for (let i = 0; i < 3; i++) assert.equal(sanitizeHeaderValue(valid), valid);
    const injected = 'a\r\nSet-Cookie: x=1';
    for (let i = 0; i < 3; i++) assert.equal(sanitizeHeaderValue(injected), 'a%0D%0ASet-Cookie: x=1');
    // Past its bound the memory of valid values starts over; answers stay the same.
    for (let i = 0; i < 600; i++) assert.equal(sanitizeHeaderValue(`value ${i}`), `value ${i}`);
    assert.equal(sanitizeHeaderValue(`${valid}\0`), `${valid}%00`);
    assert.equal(sanitizeHeaderValue(valid), valid);
  });

  it('encodes a character beyond one byte as its UTF-8, an emoji whole, and a lone surrogate without failing', () => {
    assert.equal(sanitizeHeaderValue('price 5 €'), 'price 5 %E2%82%AC');
    assert.equal(sanitizeHeaderValue('ok 😀'), 'ok %F0%9F%98%80');
    // A request byte that was no UTF-8 (headerText's U+DCFF) is that byte again; another lone half is U+FFFD.
    assert.equal(sanitizeHeaderValue('caf\udce9'), 'caf%E9');
    assert.equal(sanitizeHeaderValue('a\ud83d b'), 'a%EF%BF%BD b');
    const raw = ['X-Mood', '😀\r\n'];
    sanitizeHeaderValues(raw);
    assert.deepEqual(raw, ['X-Mood', '%F0%9F%98%80%0D%0A']);
  });
});

describe('sanitizeHeaderValues', () => {
  it('cleans the values of a flat list in place, names untouched, and tells whether one holds obs-text', () => {
    const raw = ['Content-Type', 'text/plain', 'X-Note', 'a\nb'];
    assert.equal(sanitizeHeaderValues(raw), false);
    assert.deepEqual(raw, ['Content-Type', 'text/plain', 'X-Note', 'a%0Ab']);
    assert.equal(sanitizeHeaderValues(['X-Name', 'caf\u00e9']), true);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { rawurlencode } from './rawurlencode.js';

describe('rawurlencode', () => {
  it('leaves the RFC 3986 unreserved characters as they are', () => {
    assert.equal(rawurlencode('AZaz09-_.~'), 'AZaz09-_.~');
  });

  it("escapes the characters encodeURIComponent leaves alone: ! ' ( ) *", () => {
    assert.equal(rawurlencode("!'()*"), '%21%27%28%29%2A');
  });

  it('encodes a space as %20 and uses upper-case hex', () => {
    assert.equal(rawurlencode(' /:?#[]@'), '%20%2F%3A%3F%23%5B%5D%40');
  });

  it('encodes each UTF-8 byte of non-ASCII text', () => {
    assert.equal(rawurlencode('é'), '%C3%A9');
    assert.equal(rawurlencode('日本'), '%E6%97%A5%E6%9C%AC');
    assert.equal(rawurlencode('😀'), '%F0%9F%98%80');
  });

  it("reproduces the reference's X-Debug-Exception values", () => {
    assert.equal(
      rawurlencode('No route found for "GET https://app.example.test/robots.txt"'),
      'No%20route%20found%20for%20%22GET%20https%3A%2F%2Fapp.example.test%2Frobots.txt%22',
    );
    assert.equal(
      rawurlencode('No route found for "GET https://app.example.test/login": Method Not Allowed (Allow: POST)'),
      'No%20route%20found%20for%20%22GET%20https%3A%2F%2Fapp.example.test%2Flogin%22%3A%20Method%20Not%20Allowed%20%28Allow%3A%20POST%29',
    );
    assert.equal(
      rawurlencode('Boom <b>"quoted" & \'single\'</b>'),
      'Boom%20%3Cb%3E%22quoted%22%20%26%20%27single%27%3C%2Fb%3E',
    );
    assert.equal(
      rawurlencode('/usr/share/php/Symfony/Component/HttpKernel/EventListener/RouterListener.php'),
      '%2Fusr%2Fshare%2Fphp%2FSymfony%2FComponent%2FHttpKernel%2FEventListener%2FRouterListener.php',
    );
  });

  it('returns an empty string for an empty input', () => {
    assert.equal(rawurlencode(''), '');
  });
});

describe('rawurlencode against the UTF-8 bytes', () => {
  // Each character's UTF-8 bytes (U+FFFD's for a lone surrogate), except an escaped byte (U+DC80–U+DCFF
  // alone, see headerText), which is that byte.
  const bytesOf = (char: string): number[] => {
    const code = char.charCodeAt(0);
    return char.length === 1 && code >= 0xdc80 && code <= 0xdcff ? [code - 0xdc00] : [...Buffer.from(char, 'utf8')];
  };
  const byBytes = (value: string): string =>
    [...value].flatMap(bytesOf).map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) && byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

  it('encodes any text as its UTF-8 bytes, byte by byte, lone surrogates included', () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    fc.assert(fc.property(fc.string({ unit: fc.oneof(codeUnit, fc.constantFrom('!', "'", '(', ')', '*', '~', ' ')) }), (value) => assert.equal(rawurlencode(value), byBytes(value))));
    assert.equal(rawurlencode('a\uD800b\uDFFF'), 'a%EF%BF%BDb%EF%BF%BD');
  });

  it('writes back the bytes of a header that were no UTF-8, as the reference quotes them', () => {
    assert.equal(rawurlencode('x/\udcff\udcfe é'), 'x%2F%FF%FE%20%C3%A9');
    assert.equal(rawurlencode('\udc7f\udc80'), '%EF%BF%BD%80');
  });
});

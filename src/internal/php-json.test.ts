import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerText } from '../http/header-text.js';
import { NotEncodableValueError, encodeLikePhp } from './php-json.js';

describe('encodeLikePhp', () => {
  it("writes what PHP's json_encode writes with its default flags", () => {
    // php -r 'echo json_encode(["a" => "café/x 😀 <>&\x27\"", "n" => [1, 2.5, null, true]]);'
    assert.equal(encodeLikePhp({ a: 'café/x 😀 <>&\'"', n: [1, 2.5, null, true] }), '{"a":"caf\\u00e9\\/x \\ud83d\\ude00 <>&\'\\"","n":[1,2.5,null,true]}');
  });

  it('leaves plain ASCII without slashes as JSON.stringify writes it', () => {
    assert.equal(encodeLikePhp({ title: 'An error occurred', status: 404 }), '{"title":"An error occurred","status":404}');
  });

  it('refuses a string or a key holding a header\'s bytes that are no UTF-8, as json_encode() fails on them', () => {
    const referer = headerText('https://ex.test/\u00e9\u00ff');
    assert.throws(() => encodeLikePhp({ detail: `from "${referer}"` }), NotEncodableValueError);
    assert.throws(() => encodeLikePhp({ [referer]: 1 }), NotEncodableValueError);
    assert.throws(() => encodeLikePhp([{ trace: [referer] }]), NotEncodableValueError);
    // UTF-8 bytes are text, and a character outside the BMP is a pair, not kept bytes.
    assert.equal(encodeLikePhp({ r: headerText('caf\u00c3\u00a9'), e: '\u{10080}' }), '{"r":"caf\\u00e9","e":"\\ud800\\udc80"}');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeLikePhp } from './php-json.js';

describe('encodeLikePhp', () => {
  it("writes what PHP's json_encode writes with its default flags", () => {
    // php -r 'echo json_encode(["a" => "café/x 😀 <>&\x27\"", "n" => [1, 2.5, null, true]]);'
    assert.equal(encodeLikePhp({ a: 'café/x 😀 <>&\'"', n: [1, 2.5, null, true] }), '{"a":"caf\\u00e9\\/x \\ud83d\\ude00 <>&\'\\"","n":[1,2.5,null,true]}');
  });

  it('leaves plain ASCII without slashes as JSON.stringify writes it', () => {
    assert.equal(encodeLikePhp({ title: 'An error occurred', status: 404 }), '{"title":"An error occurred","status":404}');
  });
});

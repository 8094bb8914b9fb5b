import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCacheControl, writeCacheControl } from './cache-control.js';
import { Response } from './response.js';

describe('Cache-Control', () => {
  it('keeps a quoted list of field names as one directive, as Symfony reads and writes it', () => {
    // Symfony's Response with the same Cache-Control header gives each of these.
    const cases: [string, string][] = [
      ['no-cache="X-A, B-x", max-age=5', 'max-age=5, no-cache="X-A, B-x", private'],
      ['private="Set-Cookie, X-Token"', 'private="Set-Cookie, X-Token"'],
      ['no-cache="Set-Cookie"', 'no-cache=Set-Cookie, private'],
      ['max-age="60", MAX-AGE=30', 'max-age=30, private'],
      ['a=b=c', 'a="b=c", private'],
      ['private="a\\\\b"', 'private="a\\\\b"'],
    ];
    for (const [given, sent] of cases) assert.equal(new Response('', 200, { 'Cache-Control': given }).headers.get('cache-control'), sent, given);
  });

  it('unquotes values and quotes back only those that are no token', () => {
    const directives = parseCacheControl(' private="Set-Cookie, X-Token" , max-age=5,,no-store');
    assert.deepEqual([...directives], [['private', 'Set-Cookie, X-Token'], ['max-age', '5'], ['no-store', true]]);
    assert.equal(writeCacheControl(directives), 'max-age=5, no-store, private="Set-Cookie, X-Token"');
  });
});

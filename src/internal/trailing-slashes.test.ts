import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { withoutTrailingSlashes } from './trailing-slashes.js';

describe('withoutTrailingSlashes', () => {
  it('removes the slashes a text ends with, and only those', () => {
    assert.equal(withoutTrailingSlashes('/app//'), '/app');
    assert.equal(withoutTrailingSlashes('///'), '');
    assert.equal(withoutTrailingSlashes('/a/b'), '/a/b');
    fc.assert(fc.property(fc.stringMatching(/^[/ax]{0,12}$/), (text) => assert.equal(withoutTrailingSlashes(text), text.replace(/\/+$/, ''))));
  });
});

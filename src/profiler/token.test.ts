import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateRandomToken, isProfileToken } from './token.js';

describe('generateRandomToken', () => {
  it('draws well-formed, varied tokens across refills of its random pool', () => {
    // 3 000 tokens cross the 1 024-token pool twice.
    const tokens = Array.from({ length: 3000 }, () => generateRandomToken());
    assert.ok(tokens.every(isProfileToken));
    // 16.7 million possible tokens: a handful of collisions at most among 3 000.
    assert.ok(new Set(tokens).size > 2990, `${new Set(tokens).size} distinct`);
  });
});

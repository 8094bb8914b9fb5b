import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shownContext } from './shown-context.js';

describe('shownContext', () => {
  it('shows a member named __proto__ (a JSON body logged as it came), its secrets masked like any other', () => {
    const body = JSON.parse('{"a":1,"__proto__":{"password":"hunter2","x":"y"}}') as unknown;
    assert.equal(JSON.stringify(shownContext({ body })), '{"body":{"a":1,"__proto__":{"password":"******","x":"y"}}}');
  });
});

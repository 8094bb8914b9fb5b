import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestProfile } from '../profiler/profile-store.contract.js';
import { renderProfile } from './render-profile.js';
import { createStyle } from './style.js';

describe('renderProfile', () => {
  it('writes what a client put in the record with its control characters escaped, so that none acts on the terminal', () => {
    const sequence = '\u001b]0;PWNED\u0007\u001b[2J\u009b31m';
    const profile = createTestProfile('e3740f', {
      url: `https://app.example.test/orders/${sequence}`,
      collectors: {
        request: { method: 'GET', url: `https://app.example.test/orders/${sequence}`, headers: { 'user-agent': sequence }, routeParams: { id: `${sequence}\u202e\u2028` } },
        response: { statusCode: 500, statusText: 'Internal Server Error', headers: [['X-Echo', sequence]] },
        exception: { chain: [{ className: 'Error', message: `Unknown item ${sequence}`, code: undefined, status: 500, statusText: 'Internal Server Error', file: '/app/a.ts', line: 1, trace: [] }] },
        logger: { logs: [{ time: 0, level: 'info', channel: 'orders', message: `Order ${sequence}\nplaced.`, context: {} }] },
      },
    });
    const text = renderProfile(profile, createStyle({ isTTY: false }, {}));
    assert.doesNotMatch(text, /(?![\n\t])\p{Cc}/u);
    assert.ok(text.includes('Order \\u001b]0;PWNED\\u0007\\u001b[2J\\u009b31m placed.'), text);
    assert.ok(text.includes('Unknown item \\u001b]0;PWNED'), text);
    assert.ok(text.includes('user-agent: \\u001b]0;PWNED'), text);
    // A route parameter is the decoded path: JSON escapes its C0 controls but not C1 ones, nor the bidi
    // controls and line separators that reorder or split what the terminal shows.
    assert.doesNotMatch(text, /[\u202a-\u202e\u2028]/u);
    assert.ok(text.includes('"id":"\\u001b]0;PWNED\\u0007\\u001b[2J\\u009b31m\\u202e\\u2028"'), text);
  });
});

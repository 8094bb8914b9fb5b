import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatConsoleLine } from './console-line-formatter.js';

describe('formatConsoleLine', () => {
  it('prints the time, the padded level, the channel and the one-line message', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    assert.equal(formatConsoleLine({ time, level: 'error', channel: 'request', message: 'No route\nfound', context: { a: 1 } }), '10:52:51 ERROR     [request] No route found\n');
  });
});

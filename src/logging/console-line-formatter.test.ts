import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatConsoleLine } from './console-line-formatter.js';

describe('formatConsoleLine', () => {
  it('prints the time, the padded level, the channel and the one-line message', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    assert.equal(formatConsoleLine({ time, level: 'error', channel: 'request', message: 'No route\nfound', context: { a: 1 } }), '10:52:51 ERROR     [request] No route found\n');
  });

  it('writes the control characters a message quotes as \\u escapes, so that a client cannot drive the terminal', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    assert.equal(formatConsoleLine({ time, level: 'error', channel: 'request', message: 'Panel "\u001b[31mRED\u0007"', context: {} }), '10:52:51 ERROR     [request] Panel "\\u001b[31mRED\\u0007"\n');
  });

  it('adds the first line of the error a record names, secrets masked: the log file may be what failed', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    const full = Object.assign(new Error("ENOSPC: no space left on device, write\n    at writeSync"), { code: 'ENOSPC' });
    assert.equal(formatConsoleLine({ time, level: 'error', channel: 'app', message: 'profile store write failed', context: { error: full } }), '10:52:51 ERROR     [app] profile store write failed: ENOSPC: no space left on device, write\n');
    assert.equal(
      formatConsoleLine({ time, level: 'error', channel: 'app', message: 'rate limit storage unavailable', context: { error: 'cannot reach redis://:s3cret@cache:6379' } }),
      '10:52:51 ERROR     [app] rate limit storage unavailable: cannot reach redis://:******@cache:6379\n',
    );
  });

  it('adds an exception\'s message only when the line does not already say it', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    const exception = new TypeError('Invalid header name');
    assert.equal(formatConsoleLine({ time, level: 'critical', channel: 'app', message: 'kernel failure outside the error pipeline', context: { exception } }), '10:52:51 CRITICAL  [app] kernel failure outside the error pipeline: Invalid header name\n');
    const uncaught = 'Uncaught PHP Exception TypeError: "Invalid header name" at a.ts line 3';
    assert.equal(formatConsoleLine({ time, level: 'critical', channel: 'request', message: uncaught, context: { exception } }), `10:52:51 CRITICAL  [request] ${uncaught}\n`);
  });

  it('writes the line of an error whose message is no string, as a page shows it', () => {
    const time = Date.parse('2026-11-22T10:52:51.171Z');
    const exception = Object.assign(new Error('x'), { message: { code: 7 } as unknown as string });
    assert.equal(formatConsoleLine({ time, level: 'critical', channel: 'app', message: 'failed', context: { exception } }), '10:52:51 CRITICAL  [app] failed: [object Object]\n');
  });
});

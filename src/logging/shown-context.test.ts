import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shownContext } from './shown-context.js';

describe('shownContext', () => {
  it('shows a member named __proto__ (a JSON body logged as it came), its secrets masked like any other', () => {
    const body = JSON.parse('{"a":1,"__proto__":{"password":"hunter2","x":"y"}}') as unknown;
    assert.equal(JSON.stringify(shownContext({ body })), '{"body":{"a":1,"__proto__":{"password":"******","x":"y"}}}');
  });

  it('shows a date, a URL, a map and a set by what they hold, as the log file writes them, not as {}', () => {
    const context = { at: new Date(0), next: new URL('https://x.test/?token=abc'), counts: new Map([['a', 1]]), ids: new Set([1, 2]) };
    assert.deepEqual(shownContext(context), { at: '1970-01-01T00:00:00.000Z', next: 'https://x.test/?token=******', counts: { a: 1 }, ids: [1, 2] });
  });

  it('shows an error whose message getter throws, and an object a Proxy trap makes unreadable, instead of failing', () => {
    const error = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error('message getter');
      },
    });
    const hostile = new Proxy({}, {
      ownKeys() {
        throw new Error('ownKeys trap');
      },
    });
    const shown = shownContext({ error, hostile }) as Record<string, unknown>;
    assert.equal((shown.error as { class: string }).class, 'Error');
    assert.equal(typeof (shown.error as { message: unknown }).message, 'string');
    assert.equal(shown.hostile, '[unreadable]');
  });

  it('cuts a value whose toJSON() gives another such value at the depth limit, as it cuts nested objects', () => {
    class Chain {
      declare readonly n: number;

      constructor(n: number) {
        this.n = n;
      }
      toJSON(): Chain {
        return new Chain(this.n + 1);
      }
    }
    // Each form was shown at the same depth as the value it stands for: the chain went on until the stack ran out.
    const before = Chain.prototype.toJSON;
    let calls = 0;
    Chain.prototype.toJSON = function counted(this: Chain) {
      calls += 1;
      return before.call(this);
    };
    assert.deepEqual(shownContext({ chain: new Chain(0) }), { chain: '[…]' });
    assert.ok(calls < 10, `${calls} calls of toJSON()`);
  });
});

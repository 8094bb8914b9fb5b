import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatStack, installSourceMappedStackCache } from './source-mapped-stacks.js';

// Node's default formatter (source-mapped: the tests run under tsx), captured before anything replaces it.
const nodeFormat = Error.prepareStackTrace!;

/** The error a factory makes and the call sites V8 recorded for it. */
function capture(make: () => unknown): [Error, NodeJS.CallSite[]] {
  let captured: [Error, NodeJS.CallSite[]] | undefined;
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, trace) => {
    captured = [error, trace];
    return '';
  };
  try {
    const made = make();
    void (made as Error).stack;
  } finally {
    Error.prepareStackTrace = saved;
  }
  assert.ok(captured !== undefined);
  return captured;
}

class Widget {
  declare readonly fail: boolean;

  constructor(fail: boolean) {
    this.fail = fail;
    if (fail) throw new RangeError('in a constructor');
  }

  method(): Error {
    return new Error('in a method');
  }

  static make(): Error {
    return new TypeError('in a static method');
  }
}

async function asyncFailure(): Promise<Error> {
  await Promise.resolve();
  return new Error('after an await');
}

const CASES: Record<string, () => unknown> = {
  'a plain function': function named() {
    return new Error('plain');
  },
  'an arrow': () => new Error('arrow'),
  'a method': () => new Widget(false).method(),
  'a static method': () => Widget.make(),
  'a constructor': () => {
    try {
      return new Widget(true);
    } catch (error) {
      return error;
    }
  },
  'a callback through a builtin': () => [1].map(() => new Error('in map'))[0],
  'no message and a custom name': () => Object.assign(new Error(), { name: 'CustomError' }),
};

describe('source-mapped stacks', () => {
  for (const [name, make] of Object.entries(CASES)) {
    it(`writes what Node writes for ${name}`, () => {
      const [error, trace] = capture(make);
      assert.equal(formatStack(error, trace), nodeFormat(error, trace));
    });
  }

  it('tells apart frames at the same position reached another way: another receiver type, through new', () => {
    class Shape {
      describe(): Error {
        return new Error('described');
      }
    }
    class Circle extends Shape {}
    class Square extends Shape {}
    // One caller for both, so that only the receiver's type differs between their `describe` frames.
    const describeOf = (shape: Shape): Error => shape.describe();
    function built(this: unknown): unknown {
      // One `new Error` for both: the frame's position is the same whether built was called or constructed.
      const error = new Error(new.target === undefined ? 'called' : 'constructed');
      return new.target === undefined ? error : Object.assign(this as object, { error });
    }
    // Reflect calls both ways: the frame's caller is the same builtin, only `new` differs.
    const run = (construct: boolean): Error => (construct ? (Reflect.construct(built, []) as { error: Error }).error : (Reflect.apply(built, undefined, []) as Error));
    const made = [() => describeOf(new Circle()), () => describeOf(new Square()), () => run(false), () => run(true)].map((make) => capture(make));
    // Twice each: the second time from the cache.
    for (const [error, trace] of [...made, ...made]) assert.equal(formatStack(error, trace), nodeFormat(error, trace));
    assert.match(formatStack(...made[0]!), /at Circle\.describe/);
    assert.match(formatStack(...made[1]!), /at Square\.describe/);
    assert.match(formatStack(...made[3]!), /at new built/);
  });

  it('writes what Node writes for async frames', async () => {
    const error = await asyncFailure();
    // The stack is captured at construction; formatting the same sites both ways must agree.
    const [, trace] = capture(() => error);
    assert.equal(formatStack(error, trace), nodeFormat(error, trace));
  });

  it('writes what Node writes for an error without frames, and fails as Node does when its toString throws', () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const [error, trace] = capture(() => new Error('no frames'));
      assert.equal(formatStack(error, trace), nodeFormat(error, trace));
    } finally {
      Error.stackTraceLimit = limit;
    }
    const [error, trace] = capture(() => new Error('hostile'));
    Object.defineProperty(error, 'name', {
      get() {
        throw new Error('no name');
      },
    });
    assert.throws(() => nodeFormat(error, trace), /no name/);
    assert.throws(() => formatStack(error, trace), /no name/);
  });

  it('once installed, serves repeated stacks from its cache with the same text, and leaves Node errors to Node', () => {
    const before = new Widget(false).method;
    const first = Array.from({ length: 3 }, () => capture(() => before.call(new Widget(false))));
    installSourceMappedStackCache();
    installSourceMappedStackCache();
    assert.notEqual(Error.prepareStackTrace, nodeFormat);
    for (const [error, trace] of first) assert.equal(Error.prepareStackTrace!(error, trace), nodeFormat(error, trace));
    const stacks = Array.from({ length: 3 }, () => new Widget(false).method().stack);
    assert.equal(new Set(stacks.map((stack) => stack!.split('\n').slice(1).join('\n'))).size, 1);
    assert.match(stacks[0]!, /source-mapped-stacks\.test\.ts:\d+:\d+\)/);
    const nodeError = capture(() => {
      try {
        Buffer.alloc(-1);
      } catch (error) {
        return error;
      }
    });
    assert.equal(Error.prepareStackTrace!(...nodeError), nodeFormat(...nodeError));
    assert.match(Error.prepareStackTrace!(...nodeError), /^RangeError \[ERR_OUT_OF_RANGE\]/);
  });
});

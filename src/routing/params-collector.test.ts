import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { collectParams, paramsCollector } from './params-collector.js';

describe('paramsCollector', () => {
  // Placeholder names are `\w+`: some collide with Object.prototype or are array indices.
  const name = fc.oneof(fc.stringMatching(/^\w{1,8}$/), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '12', 'length'));
  const names = fc.uniqueArray(name, { maxLength: 6 });

  it('fills params as the loop over the names does: same keys, same order, left-out values skipped', () => {
    fc.assert(
      fc.property(names, fc.array(fc.option(fc.string(), { nil: undefined }), { minLength: 7, maxLength: 7 }), fc.dictionary(fc.stringMatching(/^\w{1,3}$/), fc.string()), (variables, values, before) => {
        const groups = ['/path', ...values];
        const expected = { ...before };
        collectParams(expected, variables, groups);
        const actual = { ...before };
        paramsCollector(variables)(actual, groups);
        assert.deepEqual(Object.entries(actual), Object.entries(expected));
        assert.equal(Object.getPrototypeOf(actual), Object.prototype);
      }),
      { numRuns: 500 },
    );
  });

  it('shares one collector between routes with the same names', () => {
    assert.equal(paramsCollector(['owner', 'repo']), paramsCollector(['owner', 'repo']));
    assert.notEqual(paramsCollector(['owner', 'repo']), paramsCollector(['owner']));
  });

  it('falls back to the loop where code generation from strings is disallowed', () => {
    const module = fileURLToPath(new URL('./params-collector.ts', import.meta.url));
    const script = `import(${JSON.stringify(module)}).then(({ paramsCollector }) => { const p = {}; paramsCollector(['a', 'b'])(p, ['/x', '1', undefined]); console.log(JSON.stringify(p)); })`;
    const output = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(output.trim(), '{"a":"1"}');
  });
});

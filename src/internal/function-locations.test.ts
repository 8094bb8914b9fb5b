import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { locateFunctions } from './function-locations.js';

const THIS_FILE = fileURLToPath(import.meta.url);

// Their lines are asserted below: keep them where they are.
function declared(): void {}
const arrow = (): number => 1;
class Listener {
  readonly onRequest = (): void => {};
}

describe('locateFunctions', () => {
  it('finds where functions are defined, in the TypeScript source, bound ones by their target', () => {
    const listener = new Listener();
    const [a, b, c, d] = locateFunctions([declared, arrow, listener.onRequest, declared.bind(undefined)]);
    assert.deepEqual(a, { file: THIS_FILE, line: 9 });
    assert.deepEqual(b, { file: THIS_FILE, line: 10 });
    assert.deepEqual(c, { file: THIS_FILE, line: 12 });
    assert.deepEqual(d, a);
  });

  it('gives nothing for what has no source: built-ins, and values that are no functions', () => {
    assert.deepEqual(locateFunctions([Math.max, 'text', undefined]), [undefined, undefined, undefined]);
    assert.deepEqual(locateFunctions([]), []);
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES } from './error-codes.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'errors.md'), 'utf8');
const documented = new Map([...doc.matchAll(/^\| `(KEEL_ERR_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

describe('error codes', () => {
  it('are all documented in docs/errors.md with their status', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      assert.equal(documented.get(code), info.status, `${code} is missing from docs/errors.md or has another status there`);
    }
  });

  it('are all known to the registry when docs/errors.md lists them', () => {
    for (const code of documented.keys()) assert.ok(code in ERROR_CODES, `docs/errors.md lists ${code}, which the registry does not know`);
  });

  it('follow the KEEL_ERR_<AREA>_<CONDITION> naming', () => {
    for (const code of Object.keys(ERROR_CODES)) assert.match(code, /^KEEL_ERR_[A-Z]+(_[A-Z]+)*$/);
  });
});

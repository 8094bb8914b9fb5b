import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseForwarded } from './forwarded-header.js';

describe('parseForwarded', () => {
  it('splits elements on commas and pairs on semicolons, lower-casing names', () => {
    assert.deepEqual(parseForwarded('For=192.0.2.60;Proto=http;by=203.0.113.43, for=198.51.100.17'), [
      { for: '192.0.2.60', proto: 'http', by: '203.0.113.43' },
      { for: '198.51.100.17' },
    ]);
  });

  it('keeps separators inside quoted strings and undoes backslash escapes', () => {
    assert.deepEqual(parseForwarded('for="[2001:db8:cafe::17]:4711";host="a,b;c=d", for="\\"x\\""'), [
      { for: '[2001:db8:cafe::17]:4711', host: 'a,b;c=d' },
      { for: '"x"' },
    ]);
  });

  it('drops every unescaped quote, as the reference does, so an unclosed one does not stay in the value', () => {
    assert.deepEqual(parseForwarded('for="1.2.3.4'), [{ for: '1.2.3.4' }]);
    assert.deepEqual(parseForwarded('for=a"b"c;proto="https'), [{ for: 'abc', proto: 'https' }]);
  });

  it('skips empty elements and pairs without a value', () => {
    assert.deepEqual(parseForwarded(' , for=_hidden;;secret, junk'), [{ for: '_hidden' }]);
  });
});

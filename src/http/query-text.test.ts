import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawurlencode } from '../internal/rawurlencode.js';
import { queryTextValues } from './query-text.js';

describe('queryTextValues', () => {
  it('decodes the values of a name in order, + as a space, UTF-8 escapes as their characters', () => {
    assert.deepEqual(queryTextValues('url=a+b&ip=1&url=caf%C3%A9&url&url=', 'url'), ['a b', 'café', '', '']);
    assert.deepEqual(queryTextValues('u%72l=x&url2=y', 'url'), ['x']);
    assert.deepEqual(queryTextValues('', 'url'), []);
  });

  it('keeps bytes that are no UTF-8, so that rawurlencode writes them back as sent', () => {
    const [value] = queryTextValues('url=%FFa%2', 'url');
    assert.equal(value, '\udcffa%2');
    assert.equal(rawurlencode(value!), '%FFa%252');
  });
});

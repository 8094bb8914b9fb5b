import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeQueryString } from './normalize-query.js';

// Each pair: a query string, and what Symfony's Request::normalizeQueryString() returns for it (PHP 8.2).
const REFERENCE: [string, string][] = [
  ['b=2&a=1&c=%7e&d=a+b&e', 'a=1&b=2&c=~&d=a%20b&e='],
  ['a[]=1&a[]=2&a[x]=3', 'a%5B0%5D=1&a%5B1%5D=2&a%5Bx%5D=3'],
  ['a[b][c]=1&a[b][d]=2', 'a%5Bb%5D%5Bc%5D=1&a%5Bb%5D%5Bd%5D=2'],
  ['z=1&10=a&9=b&x=', '9=b&10=a&x=&z=1'],
  ['a[b=1', 'a%5Bb=1'],
  ['a[b]c=1', 'a%5Bb%5D=1'],
  [' x=1&&=y&%20y=2', 'x=1&y=2'],
  ['q=caf%C3%A9&r=%FF', 'q=caf%C3%A9&r=%FF'],
  ['b[]=1&a=2&b[]=3', 'a=2&b%5B0%5D=1&b%5B1%5D=3'],
  ['a=1&a=2', 'a=2'],
  ['k%5B0%5D=v', 'k%5B0%5D=v'],
  ['n.m=1&n m=2', 'n%20m=2&n.m=1'],
  ['s=%2F%3F', 's=%2F%3F'],
  ['t=a%26b%3Dc', 't=a%26b%3Dc'],
  ['A=1&a=2&_=3&-=4&~=5', '-=4&A=1&_=3&a=2&~=5'],
  ['x[1]=a&x[0]=b', 'x%5B1%5D=a&x%5B0%5D=b'],
  ['arr[]=1&arr=2', 'arr=2'],
  ['v=1&v[]=2', 'v%5B0%5D=2'],
  ['01=a&1=b&1.5=c&-1=d', '-1=d&01=a&1=b&1.5=c'],
  ['%C3%A9=1', '%C3%A9=1'],
];

describe('normalizeQueryString', () => {
  for (const [query, expected] of REFERENCE) {
    it(`normalises ${JSON.stringify(query)} as the reference does`, () => {
      assert.equal(normalizeQueryString(query), expected);
    });
  }

  it('drops a name nested deeper than 64 levels, what was set under it before included, as PHP does', () => {
    const nested = (levels: number) => `a${'[]'.repeat(levels)}=x`;
    assert.equal(normalizeQueryString(`a=1&${nested(64)}&b=2`), `a${'%5B0%5D'.repeat(64)}=x&b=2`);
    assert.equal(normalizeQueryString(`a=1&${nested(65)}&b=2`), 'b=2');
    assert.equal(normalizeQueryString(`${nested(65)}&a=1&b=2`), 'a=1&b=2');
    // Thousands of levels: no stack overflow (it made a 500 of every route that logs its URL).
    assert.equal(normalizeQueryString(`${nested(20_000)}&b=2`), 'b=2');
  });

  it('leaves an empty query empty', () => {
    assert.equal(normalizeQueryString(''), '');
  });
});

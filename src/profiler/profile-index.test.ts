import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatIndexLine, parseIndexLine, type IndexEntry } from './profile-index.js';

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

const entries: fc.Arbitrary<IndexEntry> = fc.record({
  token: hex(6),
  // Free text: what a forwarded header, a method or a URL can bring, quotes and commas included.
  ip: fc.string({ unit: fc.constantFrom('1', '.', ':', ',', '"', 'a', ' ', 'é') }),
  method: fc.string({ unit: fc.constantFrom('G', 'E', 'T', ',', '"', '-') }),
  url: fc.string({ unit: 'binary' }).filter((url) => !/[\r\n]/.test(url)),
  time: fc.integer({ min: 0, max: 2 ** 40 }),
  parent: fc.option(hex(6), { nil: undefined }),
  statusCode: fc.integer({ min: 100, max: 599 }),
  type: fc.constant('request' as const),
  location: fc.option(
    fc.record(
      {
        ring: fc.tuple(fc.integer({ min: 1, max: 4_000_000 }), hex(8)).map(([pid, random]) => `${pid}-${random}`),
        slot: fc.nat(),
        length: fc.nat(),
        part: fc.record({ offset: fc.nat(), size: fc.nat() }, { noNullPrototype: true }),
      },
      { requiredKeys: ['ring', 'slot', 'length'], noNullPrototype: true },
    ),
    { nil: undefined },
  ),
})
  // Only the file store cuts a URL, on a line naming its record.
  .chain((entry) => (entry.location === undefined ? fc.constant(entry) : fc.constantFrom(entry, { ...entry, urlCut: true as const })));

describe('index lines', () => {
  it('read back exactly what was written, whatever the free-text columns hold', () => {
    fc.assert(
      fc.property(entries, (entry) => {
        const line = formatIndexLine(entry);
        assert.equal(line.indexOf('\n'), line.length - 1);
        const parsed = parseIndexLine(line.slice(0, -1));
        const { location, ...summary } = entry;
        assert.deepEqual(parsed, location === undefined ? { ...summary } : { ...summary, location: { ...location } });
      }),
    );
  });

  it('quote a URL holding a comma or a quote, as RFC 4180 says, and encode line breaks', () => {
    const base = { token: 'abc123', ip: '203.0.113.7', method: 'GET', time: 1, parent: undefined, statusCode: 404, type: 'request' as const };
    assert.equal(formatIndexLine({ ...base, url: 'https://a.test/x?a=1,2&b="q"' }), 'abc123,203.0.113.7,GET,"https://a.test/x?a=1,2&b=""q""",1,,404,request\n');
    assert.equal(formatIndexLine({ ...base, url: 'https://a.test/x\r\ny' }), 'abc123,203.0.113.7,GET,https://a.test/x%0D%0Ay,1,,404,request\n');
    assert.equal(
      formatIndexLine({ ...base, url: '/', location: { ring: '12-0a0b0c0d', slot: 3, length: 120 } }),
      'abc123,203.0.113.7,GET,/,1,,404,request,12-0a0b0c0d,3,120\n',
    );
    // A record compressed with others: its offset and size in the decompressed group follow.
    assert.equal(
      formatIndexLine({ ...base, url: '/', location: { ring: '12-0a0b0c0d', slot: 3, length: 120, part: { offset: 6000, size: 5800 } } }),
      'abc123,203.0.113.7,GET,/,1,,404,request,12-0a0b0c0d,3,120,6000,5800\n',
    );
  });

  it('mark a line whose URL is cut after its last column', () => {
    const entry: IndexEntry = {
      token: 'abc123', ip: '203.0.113.7', method: 'GET', url: 'https://a.test/?q=xx', time: 1, parent: undefined, statusCode: 404, type: 'request',
      location: { ring: '12-0a0b0c0d', slot: 3, length: 120 }, urlCut: true,
    };
    assert.equal(formatIndexLine(entry), 'abc123,203.0.113.7,GET,https://a.test/?q=xx,1,,404,request,12-0a0b0c0d,3,120,url-cut\n');
    assert.equal(parseIndexLine('abc123,203.0.113.7,GET,https://a.test/?q=xx,1,,404,request,12-0a0b0c0d,3,120,6000,5800,url-cut')?.urlCut, true);
    assert.equal(parseIndexLine('abc123,203.0.113.7,GET,https://a.test/?q=xx,1,,404,request,12-0a0b0c0d,3,120')?.urlCut, undefined);
  });

  it('skip a line whose group offset or size is missing or not a count', () => {
    const head = 'abc123,203.0.113.7,GET,/,1,,404,request,12-0a0b0c0d,3,120';
    for (const tail of [',6000', ',6000,', ',-1,5', ',1e3,5', ',6000,x']) assert.equal(parseIndexLine(head + tail), undefined, tail);
    assert.deepEqual(parseIndexLine(`${head},6000,5800`)?.location, { ring: '12-0a0b0c0d', slot: 3, length: 120, part: { offset: 6000, size: 5800 } });
  });
});

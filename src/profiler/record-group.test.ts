import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { GROUP_RECORDS, GroupReader, groupTexts, packRecords } from './record-group.js';

describe('record groups', () => {
  it('read back each record of a group, whatever its alphabet, and a group of one as the record itself', () => {
    const reader = new GroupReader();
    const texts = ['{"token":"000001"}', '{"body":"é€😀"}', '{"latin":"déjà ÿ"}', JSON.stringify({ big: 'x'.repeat(100_000) })];
    const { data, parts } = packRecords(texts.map((text) => [text]));
    for (const [i, text] of texts.entries()) assert.equal(reader.record(data, parts[i]), text);
    const single = packRecords([['{"token":"000002"}']]);
    assert.deepEqual(single.parts, [undefined]);
    assert.equal(reader.record(single.data, undefined), '{"token":"000002"}');
  });

  it('compresses records that repeat each other far smaller together than apart', () => {
    const texts = Array.from({ length: 20 }, (_, i) => JSON.stringify({ token: (0xa00000 + i).toString(16), headers: { accept: 'text/html '.repeat(50) }, trace: 'frame\n'.repeat(300) }));
    const apart = texts.reduce((sum, text) => sum + packRecords([[text]]).data.length, 0);
    const together = packRecords(texts.map((text) => [text])).data.length;
    assert.ok(together * 5 < apart, `${together} together, ${apart} apart`);
  });

  // profilePieces: written text at even indexes, the texts of frozen collector data at odd ones.
  it('gives the texts several records share once, and reads every record back whole', () => {
    const config = JSON.stringify({ env: 'dev', limits: 'x'.repeat(4000) });
    const error = JSON.stringify({ chain: [{ message: 'No route found for "GET /é"', trace: 'frame '.repeat(500) }] });
    const records = [
      ['{"token":"000001","collectors":{"config":', config, ',"exception":', error, ',"request":{"n":1}}}'],
      ['{"token":"000002","collectors":{"config":', config, ',"exception":', error, ',"request":{"n":2}}}'],
      ['{"token":"000003","collectors":{"config":', config, ',"own":', JSON.stringify({ only: 'here', nul: '\u0000' }), '}}'],
    ];
    const reader = new GroupReader();
    const { data, parts } = packRecords(records);
    for (const [i, pieces] of records.entries()) {
      const text = reader.record(data, parts[i]);
      assert.equal(text, pieces.join(''));
      JSON.parse(text);
    }
    // Each shared text is in the group's bytes once: a record holds a marker where it was.
    const group = brotliDecompressSync(data).toString('utf8');
    assert.equal(group.split(config).length - 1, 1);
    assert.equal(group.split(error).length - 1, 1);
    // A text met once stays where it is, and a record whose text holds an escaped NUL is not read as a marker.
    assert.match(group, /"own":\{"only":"here","nul":"\\u0000"\}/);
    // A group of one is its record, as before.
    assert.equal(reader.record(packRecords([records[0]!]).data, undefined), records[0]!.join(''));
  });

  it('refuses a part past the end of its group, and bytes that are no group', () => {
    const reader = new GroupReader();
    const { data } = packRecords([['{"a":1}'], ['{"b":2}']]);
    assert.throws(() => reader.record(data, { offset: 7, size: 100 }), /holds 14 bytes/);
    assert.throws(() => reader.record(Buffer.from('not brotli at all'), undefined));
    assert.equal(reader.record(brotliCompressSync('{"c":3}'), undefined), '{"c":3}');
  });

  it('reads a group again from its bytes once they are no longer the group it kept (a slot rewritten)', () => {
    const reader = new GroupReader();
    const first = packRecords([['{"token":"000001"}'], ['{"token":"000002"}']]);
    assert.equal(reader.record(first.data, first.parts[1]), '{"token":"000002"}');
    // The same slot, rewritten with another group whose parts lie at the same offsets.
    const second = packRecords([['{"token":"000003"}'], ['{"token":"000004"}']]);
    assert.equal(reader.record(second.data, second.parts[1]), '{"token":"000004"}');
    assert.equal(reader.record(second.data, second.parts[0]), '{"token":"000003"}');
    assert.equal(reader.record(first.data, first.parts[0]), '{"token":"000001"}');
  });

  it(`cuts a batch into groups of at most ${GROUP_RECORDS} records and about a megabyte, a larger record alone`, () => {
    const small = Array.from({ length: 70 }, (_, i) => ({ size: `{"i":${i}}`.length }));
    assert.deepEqual(groupTexts(small).map((group) => group.length), [32, 32, 6]);
    const big = { size: 600_000 };
    const huge = { size: 2_000_000 };
    assert.deepEqual(groupTexts([big, big, small[0]!, huge, small[1]!]).map((group) => group.map(({ size }) => size)), [[600_000], [600_000, 7], [2_000_000], [7]]);
    assert.deepEqual(groupTexts([]), []);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { GROUP_RECORDS, GroupReader, groupTexts, packRecords } from './record-group.js';

describe('record groups', () => {
  it('read back each record of a group, whatever its alphabet, and a group of one as the record itself', () => {
    const reader = new GroupReader();
    const texts = ['{"token":"000001"}', '{"body":"é€😀"}', '{"latin":"déjà ÿ"}', JSON.stringify({ big: 'x'.repeat(100_000) })];
    const { data, parts } = packRecords(texts);
    for (const [i, text] of texts.entries()) assert.equal(reader.record(data, parts[i]), text);
    const single = packRecords(['{"token":"000002"}']);
    assert.deepEqual(single.parts, [undefined]);
    assert.equal(reader.record(single.data, undefined), '{"token":"000002"}');
  });

  it('compresses records that repeat each other far smaller together than apart', () => {
    const texts = Array.from({ length: 20 }, (_, i) => JSON.stringify({ token: (0xa00000 + i).toString(16), headers: { accept: 'text/html '.repeat(50) }, trace: 'frame\n'.repeat(300) }));
    const apart = texts.reduce((sum, text) => sum + packRecords([text]).data.length, 0);
    assert.ok(packRecords(texts).data.length * 5 < apart, `${packRecords(texts).data.length} together, ${apart} apart`);
  });

  it('refuses a part past the end of its group, and bytes that are no group', () => {
    const reader = new GroupReader();
    const { data } = packRecords(['{"a":1}', '{"b":2}']);
    assert.throws(() => reader.record(data, { offset: 7, size: 100 }), /holds 14 bytes/);
    assert.throws(() => reader.record(Buffer.from('not brotli at all'), undefined));
    assert.equal(reader.record(brotliCompressSync('{"c":3}'), undefined), '{"c":3}');
  });

  it('reads a group again from its bytes once they are no longer the group it kept (a slot rewritten)', () => {
    const reader = new GroupReader();
    const first = packRecords(['{"token":"000001"}', '{"token":"000002"}']);
    assert.equal(reader.record(first.data, first.parts[1]), '{"token":"000002"}');
    // The same slot, rewritten with another group whose parts lie at the same offsets.
    const second = packRecords(['{"token":"000003"}', '{"token":"000004"}']);
    assert.equal(reader.record(second.data, second.parts[1]), '{"token":"000004"}');
    assert.equal(reader.record(second.data, second.parts[0]), '{"token":"000003"}');
    assert.equal(reader.record(first.data, first.parts[0]), '{"token":"000001"}');
  });

  it(`cuts a batch into groups of at most ${GROUP_RECORDS} records and about a megabyte, a larger record alone`, () => {
    const small = Array.from({ length: 70 }, (_, i) => ({ text: `{"i":${i}}` }));
    assert.deepEqual(groupTexts(small).map((group) => group.length), [32, 32, 6]);
    const big = { text: 'x'.repeat(600_000) };
    const huge = { text: 'y'.repeat(2_000_000) };
    assert.deepEqual(groupTexts([big, big, small[0]!, huge, small[1]!]).map((group) => group.map(({ text }) => text.length)), [[600_000], [600_000, 7], [2_000_000], [7]]);
    assert.deepEqual(groupTexts([]), []);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROFILER_PAGES, pageTable, type PageTiming } from './profiler-pages.js';

describe('profiler pages benchmark', () => {
  it("opens the record's pages by the reference's routes", () => {
    const paths = PROFILER_PAGES.map(({ path }) => path('4ea1d5'));
    assert.equal(paths[0], '/_profiler/4ea1d5');
    assert.ok(paths.includes('/_profiler/4ea1d5?panel=logger'));
    assert.ok(paths.includes('/_wdt/4ea1d5'));
    assert.ok(paths.includes('/_profiler/empty/search/results?limit=10'));
  });

  it("tabulates keel's figures, and the reference's with keel's speed-up when measured", () => {
    const keel: PageTiming[] = [{ page: 'panel request', p50: 1.25, p90: 2, bytes: 20480, cpuMicros: 800 }];
    const reference: PageTiming[] = [{ page: 'panel request', p50: 50, p90: 60, bytes: 102400, cpuMicros: undefined }];
    assert.equal(pageTable(keel), '| page | keel p50 ms | keel p90 ms | keel CPU µs | keel kB |\n| --- | --- | --- | --- | --- |\n| panel request | 1.25 | 2.00 | 800 | 20.0 |');
    const lines = pageTable(keel, reference).split('\n');
    assert.equal(lines[0], '| page | keel p50 ms | keel p90 ms | keel CPU µs | keel kB | reference p50 ms | reference p90 ms | reference kB | keel faster (p50) |');
    assert.equal(lines[2], '| panel request | 1.25 | 2.00 | 800 | 20.0 | 50.00 | 60.00 | 100.0 | 40.0× |');
  });
});

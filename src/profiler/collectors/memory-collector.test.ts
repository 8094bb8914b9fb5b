import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCollector } from './memory-collector.js';

describe('MemoryCollector', () => {
  it('reads the heap on every collect and samples the resident set size per interval', () => {
    let now = 0;
    const collector = new MemoryCollector({ rssInterval: 100, now: () => now });
    const first = collector.collect();
    assert.ok(first.rss > 0 && first.heapUsed > 0 && first.heapTotal >= first.heapUsed);
    assert.ok(first.peakRss >= first.rss, 'the peak is at least the current resident set');
    const kept = new Array(200_000).fill(1);
    now = 50;
    assert.equal(collector.collect().rss, first.rss);
    now = 150;
    assert.ok(collector.collect().rss > 0);
    assert.equal(kept.length, 200_000);
  });
});

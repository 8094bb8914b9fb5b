import { getHeapStatistics } from 'node:v8';
import type { Collector } from './collector.js';

export interface MemoryData {
  /** Resident set size of the process, sampled at most once per `rssInterval`. */
  rss: number;
  /** Highest resident set size the process has reached (getrusage), sampled with `rss`. */
  peakRss: number;
  heapUsed: number;
  heapTotal: number;
}

/**
 * Process memory when the response was ready (Node has no per-request peak like PHP's). Reading the
 * RSS costs a /proc read (~9 µs, more than every other collector together), and it is a process-wide
 * figure that moves slowly, so it is sampled; the heap figures are cheap and read every time.
 */
export class MemoryCollector implements Collector<MemoryData> {
  readonly name = 'memory';
  #rss = 0;
  #peakRss = 0;
  #sampledAt = Number.NEGATIVE_INFINITY;
  #rssInterval: number;
  #now: () => number;

  constructor({ rssInterval = 100, now = () => performance.now() }: { rssInterval?: number; now?: () => number } = {}) {
    this.#rssInterval = rssInterval;
    this.#now = now;
  }

  collect(): MemoryData {
    const now = this.#now();
    if (now - this.#sampledAt >= this.#rssInterval) {
      this.#rss = process.memoryUsage.rss();
      this.#peakRss = process.resourceUsage().maxRSS * 1024;
      this.#sampledAt = now;
    }
    const { used_heap_size: heapUsed, total_heap_size: heapTotal } = getHeapStatistics();
    return { rss: this.#rss, peakRss: this.#peakRss, heapUsed, heapTotal };
  }
}

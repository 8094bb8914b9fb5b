import type { Collector } from './collector.js';

export interface MemoryData {
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

/** Process memory when the response was ready (Node has no per-request peak like PHP's). */
export class MemoryCollector implements Collector<MemoryData> {
  readonly name = 'memory';

  collect(): MemoryData {
    const { rss, heapUsed, heapTotal } = process.memoryUsage();
    return { rss, heapUsed, heapTotal };
  }
}

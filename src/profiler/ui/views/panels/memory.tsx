/** @jsxRuntime automatic @jsxImportSource preact */
import type { MemoryData } from '../../../collectors/memory-collector.js';
import type { PanelProps } from './panel.js';

const MIB = 1024 * 1024;

export function MemoryPanel({ data }: PanelProps<MemoryData>) {
  return (
    <div>
      <h2>Memory</h2>
      {(
        [
          ['Resident set size', data.rss],
          ['Heap used', data.heapUsed],
          ['Heap total', data.heapTotal],
        ] as const
      ).map(([label, bytes]) => (
        <div class="metric">
          <span class="value">{(bytes / MIB).toFixed(1)} MiB</span>
          <span class="label">{label}</span>
        </div>
      ))}
    </div>
  );
}

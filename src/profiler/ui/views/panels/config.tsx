import type { ConfigData } from '../../../collectors/config-collector.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

export function ConfigPanel({ data }: PanelProps<ConfigData>) {
  return (
    <div>
      <h2>Configuration</h2>
      <DataTable rows={(data.config ?? {}) as Record<string, unknown>} />
    </div>
  );
}

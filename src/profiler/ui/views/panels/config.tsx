/** @jsxRuntime automatic @jsxImportSource preact */
import type { ConfigData } from '../../../collectors/config-collector.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

/** Environment, versions and the effective configuration, one table per section; secrets arrive masked. */
export function ConfigPanel({ data }: PanelProps<ConfigData>) {
  const config = (data.config ?? {}) as Record<string, unknown>;
  const sections = Object.entries(config).filter(([, value]) => isObject(value));
  const scalars = Object.entries(config).filter(([, value]) => !isObject(value));
  return (
    <div>
      <h2>Configuration</h2>
      <div class="metrics">
        <Metric value={data.env ?? 'n/a'} label="Environment" />
        <Metric value={data.debug === undefined ? 'n/a' : data.debug ? 'enabled' : 'disabled'} label="Debug" />
        <Metric value={data.nodeVersion ?? 'n/a'} label="Node.js" />
        <Metric value={data.keelVersion ?? 'n/a'} label="keel" />
      </div>
      <h3>Application</h3>
      <DataTable rows={scalars} />
      {sections.map(([name, value]) => (
        <>
          <h3>{name}</h3>
          <DataTable rows={Object.entries(value as Record<string, unknown>)} empty="Nothing configured" />
        </>
      ))}
    </div>
  );
}

function Metric({ value, label }: { value: string; label: string }) {
  return (
    <div class="metric">
      <span class="value">{value}</span>
      <span class="label">{label}</span>
    </div>
  );
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

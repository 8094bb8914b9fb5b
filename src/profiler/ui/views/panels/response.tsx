/** @jsxRuntime automatic @jsxImportSource preact */
import type { ResponseData } from '../../../collectors/response-collector.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

export function ResponsePanel({ data }: PanelProps<ResponseData>) {
  return (
    <div>
      <h2>
        Response {data.statusCode} {data.statusText}
      </h2>
      <h3>Response Headers</h3>
      <DataTable rows={data.headers} />
    </div>
  );
}

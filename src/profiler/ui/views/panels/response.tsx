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
      <h3>Response Cookies</h3>
      {/* From the Set-Cookie lines, values already masked: the name, then its value and attributes. */}
      <DataTable rows={responseCookies(data.headers)} empty="No response cookies" />
    </div>
  );
}

function responseCookies(headers: readonly [string, string][]): [string, string][] {
  return headers
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .map(([, line]) => {
      const eq = line.indexOf('=');
      return eq === -1 ? [line, ''] : [line.slice(0, eq).trim(), line.slice(eq + 1)];
    });
}

import type { RouterData } from '../../../collectors/router-collector.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

export function RouterPanel({ data }: PanelProps<RouterData>) {
  return (
    <div>
      <h2>Routing</h2>
      <DataTable
        rows={{
          'Matched route': data.route ?? 'n/a',
          'Route parameters': data.routeParams,
          ...(data.redirect === undefined ? {} : { 'Redirected to': data.redirect.url }),
        }}
      />
      {data.route === undefined && <p class="empty">No route matched.</p>}
      <h3>Match context</h3>
      <DataTable rows={data.context} />
    </div>
  );
}

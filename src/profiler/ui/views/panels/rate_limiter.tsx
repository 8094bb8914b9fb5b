/** @jsxRuntime automatic @jsxImportSource preact */
import type { RateLimiterData } from '../../../collectors/rate-limiter-collector.js';
import type { PanelProps } from './panel.js';

/** Each limiter the request was counted against: its verdict, quota, and when it resets. */
export function RateLimiterPanel({ data }: PanelProps<RateLimiterData>) {
  return (
    <div>
      <h2>Rate Limiter</h2>
      {data.limiters.length === 0 ? (
        <p class="empty">No rate limiter was consulted for this request.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Limiter</th>
              <th>Policy</th>
              <th>Scope</th>
              <th>Key</th>
              <th>Verdict</th>
              <th>Remaining</th>
              <th>Limit</th>
              <th>Window (s)</th>
              <th>Retry after (s)</th>
              <th>Resets in (s)</th>
            </tr>
          </thead>
          <tbody>
            {data.limiters.map((entry) => (
              <tr>
                <td>{entry.limiter}</td>
                <td>{entry.policy}</td>
                <td>{entry.scope}</td>
                <td>{entry.key}</td>
                <td class={entry.accepted ? 'status-success' : 'status-error'}>
                  {entry.accepted ? 'accepted' : 'refused'}
                  {entry.degraded ? ' (storage unavailable: fail mode)' : ''}
                </td>
                <td>{entry.remaining}</td>
                <td>{entry.limit}</td>
                <td>{entry.window}</td>
                <td>{entry.retryAfter}</td>
                <td>{entry.reset}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** @jsxRuntime automatic @jsxImportSource preact */
import type { RateLimiterData, RateLimiterEntry } from '../../../collectors/rate-limiter-collector.js';
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
              <Row entry={entry} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * One limiter's answer. A degraded one counted nothing (its fail mode decided; its remaining is the limit,
 * or 0), and a no_limit limiter has no quota (the largest safe integer stands for "unlimited", and its
 * interval is unused): numbers shown for them read as a count the storage never made, "50 remaining" while
 * Redis was down.
 */
function Row({ entry }: { entry: RateLimiterEntry }) {
  const unlimited = entry.policy === 'no_limit';
  const counted = !unlimited && !entry.degraded;
  return (
    <tr>
      <td>{entry.limiter}</td>
      <td>{entry.policy}</td>
      <td>{entry.scope}</td>
      <td>{entry.key}</td>
      <td class={entry.accepted ? 'status-success' : 'status-error'}>
        {entry.accepted ? 'accepted' : 'refused'}
        {entry.degraded ? ' (storage unavailable: fail mode)' : ''}
      </td>
      <td>{unlimited ? 'unlimited' : counted ? entry.remaining : 'unknown'}</td>
      <td>{unlimited ? 'unlimited' : entry.limit}</td>
      <td>{unlimited ? '-' : entry.window}</td>
      <td>{entry.retryAfter}</td>
      <td>{counted ? entry.reset : '-'}</td>
    </tr>
  );
}

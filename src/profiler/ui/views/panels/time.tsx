import type { TimeData } from '../../../collectors/time-collector.js';
import type { PanelProps } from './panel.js';

export function TimePanel({ data }: PanelProps<TimeData>) {
  return (
    <div>
      <h2>Performance</h2>
      <div class="metric">
        <span class="value">{data.duration.toFixed(1)} ms</span>
        <span class="label">Total time</span>
      </div>
      <h3>Listeners</h3>
      {data.events.length === 0 ? (
        <p class="empty">No listener was traced.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Event</th>
              <th>Listener</th>
              <th>Start (ms)</th>
              <th>Duration (ms)</th>
            </tr>
          </thead>
          <tbody>
            {data.events.map((entry) => (
              <tr>
                <td>{entry.event}</td>
                <td>{entry.listener}</td>
                <td>{entry.start.toFixed(2)}</td>
                <td>{(entry.end - entry.start).toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

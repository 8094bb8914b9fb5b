import type { LoggerData } from '../../../collectors/logger-collector.js';
import type { PanelProps } from './panel.js';

export function LoggerPanel({ data }: PanelProps<LoggerData>) {
  if (data.logs.length === 0) return <p class="empty">There are no log messages.</p>;
  return (
    <div>
      <h2>Log Messages</h2>
      <table>
        <thead>
          <tr>
            <th>Time</th>
            <th>Level</th>
            <th>Channel</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {data.logs.map((record) => (
            <tr class={`level-${record.level}`}>
              <td>{new Date(record.time).toISOString()}</td>
              <td>{record.level.toUpperCase()}</td>
              <td>{record.channel}</td>
              <td>
                {record.message}
                {Object.keys(record.context).length > 0 && <pre>{JSON.stringify(record.context, null, 2)}</pre>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

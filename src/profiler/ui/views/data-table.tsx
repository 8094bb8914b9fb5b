/** @jsxRuntime automatic @jsxImportSource preact */
/** Name/value rows; values that are not text are shown as JSON. */
export function DataTable({ rows, empty = 'None' }: { rows: Record<string, unknown> | [string, unknown][]; empty?: string }) {
  const entries = Array.isArray(rows) ? rows : Object.entries(rows);
  if (entries.length === 0) return <p class="empty">{empty}</p>;
  return (
    <table>
      <tbody>
        {entries.map(([name, value]) => (
          <tr>
            <th>
              <span>{name}</span>
            </th>
            <td>{formatValue(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function formatValue(value: unknown): string {
  if (value === undefined) return 'n/a';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** @jsxRuntime automatic @jsxImportSource preact */
import type { Request } from '../../http/request.js';

/** Method, URL and headers of the request that failed. */
export function RequestSummary({ request }: { request: Request }) {
  const headers = Object.entries(request.headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value ?? '']).map((v) => [name, v] as const),
  );
  return (
    <table class="request">
      <tbody>
        <tr>
          <th>Method</th>
          <td>{request.method}</td>
        </tr>
        <tr>
          <th>URL</th>
          <td class="break-long-words">{safeUri(request)}</td>
        </tr>
        {headers.map(([name, value]) => (
          <tr>
            <th class="nowrap">{name}</th>
            <td class="break-long-words">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Resolving the origin may throw (a conflicting forwarded header is one of the errors this page shows).
function safeUri(request: Request): string {
  try {
    return request.uri;
  } catch {
    return request.queryString === '' ? request.pathInfo : `${request.pathInfo}?${request.queryString}`;
  }
}

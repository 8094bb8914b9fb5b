import type { Request } from '../../http/request.js';
import { html } from '../../internal/html-template.js';

/** Method, URL and headers of the request that failed. */
export function RequestSummary({ request }: { request: Request }) {
  const rows = [];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const line of Array.isArray(value) ? value : [value ?? '']) rows.push(html`<tr><th class="nowrap">${name}</th><td class="break-long-words">${line}</td></tr>`);
  }
  return html`
    <table class="request">
      <tbody>
        <tr><th>Method</th><td>${request.method}</td></tr>
        <tr><th>URL</th><td class="break-long-words">${safeUri(request)}</td></tr>
        ${rows}
      </tbody>
    </table>
  `;
}

// Resolving the origin may throw (a conflicting forwarded header is one of the errors this page shows).
function safeUri(request: Request): string {
  try {
    return request.uri;
  } catch {
    return request.queryString === '' ? request.pathInfo : `${request.pathInfo}?${request.queryString}`;
  }
}

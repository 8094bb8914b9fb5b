import { isSecretName, MASK, maskTextSecrets } from '../../config/mask-secrets.js';
import type { Request } from '../../http/request.js';
import { html } from '../../internal/html-template.js';
import { headerText } from '../../http/header-text.js';

/**
 * Method, URL and headers of the request that failed, secrets masked as in the profiler's panels: a
 * secret-named header (Authorization, Cookie, X-Api-Key) whole, a secret query parameter in the URL or
 * in a header quoting one (a Referer).
 */
export function RequestSummary({ request }: { request: Request }) {
  const rows = [];
  for (const [name, value] of Object.entries(request.headers)) {
    // As the text its bytes spell (a UTF-8 `café` arrives as `cafÃ©`), as the error's message quotes it.
    for (const line of Array.isArray(value) ? value : [value ?? '']) rows.push(html`<tr><th class="nowrap">${name}</th><td class="break-long-words">${isSecretName(name) ? MASK : maskTextSecrets(headerText(line))}</td></tr>`);
  }
  return html`
    <table class="request">
      <tbody>
        <tr><th>Method</th><td>${request.method}</td></tr>
        <tr><th>URL</th><td class="break-long-words">${maskTextSecrets(safeUri(request))}</td></tr>
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

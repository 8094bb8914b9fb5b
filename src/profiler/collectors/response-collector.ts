import type { Response } from '../../http/response.js';
import type { Collector } from './collector.js';
import { isSecretName, MASK } from '../../config/mask-secrets.js';
import { rawurlencode } from '../../internal/rawurlencode.js';
import { maskTextSecrets } from '../../config/mask-secrets.js';

export interface ResponseData {
  statusCode: number;
  statusText: string;
  /** Header lines in the order they stood when the profile was collected. */
  headers: [string, string][];
}

/** The response as the profiler saw it: listeners that run later (robots header) are not in it. */
export class ResponseCollector implements Collector<ResponseData> {
  readonly name = 'response';

  collect(_request: unknown, response: Response): ResponseData {
    const headers: [string, string][] = [];
    for (const [name, value] of response.headers) {
      const lower = name.toLowerCase();
      headers.push([name, lower === 'set-cookie' ? maskCookie(value) : isSecretName(lower) ? MASK : lower === 'x-debug-exception' ? maskEncoded(value) : maskTextSecrets(value)]);
    }
    return { statusCode: response.status, statusText: response.statusText, headers };
  }
}

// Session cookies are credentials: keep the name and attributes, hide the value. A pair without `=`
// (`Set-Cookie: s3cr3t; Path=/`) is a value without a name to a browser (RFC 6265bis §5.6): hidden whole.
function maskCookie(value: string): string {
  const semicolon = value.indexOf(';');
  const pair = semicolon === -1 ? value : value.slice(0, semicolon);
  const attributes = semicolon === -1 ? '' : value.slice(semicolon);
  const eq = pair.indexOf('=');
  return `${eq === -1 ? '' : pair.slice(0, eq + 1)}${MASK}${attributes}`;
}

// X-Debug-Exception holds the error message percent-encoded: its quoted URLs are masked once decoded.
function maskEncoded(value: string): string {
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    return value;
  }
  const masked = maskTextSecrets(text);
  return masked === text ? value : rawurlencode(masked);
}

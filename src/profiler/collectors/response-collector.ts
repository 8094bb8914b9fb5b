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

// Session cookies are credentials: keep the name and attributes, hide the value.
function maskCookie(value: string): string {
  const eq = value.indexOf('=');
  const semicolon = value.indexOf(';');
  return eq === -1 ? value : `${value.slice(0, eq + 1)}${MASK}${semicolon === -1 ? '' : value.slice(semicolon)}`;
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

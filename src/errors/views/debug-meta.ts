import { html } from '../../internal/html-template.js';

/**
 * The head tags every debug page shares (the error page, the profiler's pages): never indexed, and an
 * inline empty icon so that browsers request no /favicon.ico, one more 404 in the log and the profiler.
 */
export function DebugMeta() {
  return html`<meta charset="UTF-8"/><meta name="robots" content="noindex,nofollow"/><meta name="viewport" content="width=device-width,initial-scale=1"/><link rel="icon" href="data:,"/>`;
}

import { countProblemLogs } from '../../../errors/views/logs-table.js';
import { html } from '../../../internal/html-template.js';
import type { ExceptionData } from '../../collectors/exception-collector.js';
import type { LoggerData } from '../../collectors/logger-collector.js';
import type { MemoryData } from '../../collectors/memory-collector.js';
import type { RequestData } from '../../collectors/request-collector.js';
import type { TimeData } from '../../collectors/time-collector.js';
import type { Profile } from '../../profile.js';
import { countWarningLogs } from './panels/menu-badge.js';

const MIB = 1024 * 1024;

/**
 * The bar injected before `</body>` of HTML pages: status, route, time, memory, exception and log counts,
 * a link to the record, the redirect that led here and the error sub-request the page came from. No script;
 * its stylesheet carries the nonce the page's Content-Security-Policy was given for it, if it has one.
 * `prefix` goes before the profiler's paths (`/_profiler/<token>`, its stylesheet): the request's base path,
 * or an absolute URL.
 */
export function Toolbar({ profile, prefix, styleNonce }: { profile: Profile; prefix: string; styleNonce?: string }) {
  const request = profile.collectors['request'] as RequestData | undefined;
  const time = profile.collectors['time'] as TimeData | undefined;
  const memory = profile.collectors['memory'] as MemoryData | undefined;
  const exceptions = (profile.collectors['exception'] as ExceptionData | undefined)?.chain.length ?? 0;
  const logs = (profile.collectors['logger'] as LoggerData | undefined)?.logs ?? [];
  const problems = countProblemLogs(logs);
  const warnings = countWarningLogs(logs);
  const status = profile.statusCode;
  // As the reference colours it: red from 400, yellow for redirects, green below.
  const level = status >= 400 ? 'error' : status >= 300 ? 'warning' : 'success';
  const base = profileUrl(prefix, profile.token);
  const logClass = problems > 0 ? ' sf-toolbar-count-error' : warnings > 0 ? ' sf-toolbar-count-warning' : '';
  const logCounts = problems > 0 ? ` (${problems} error${problems === 1 ? '' : 's'})` : warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  const items = [
    html`<a class="sf-toolbar-status sf-toolbar-status-${level}" href="${panelUrl(base, 'request')}" title="HTTP status">${status}</a>`,
    html`<span class="sf-toolbar-item" title="Route">${request?.route ?? 'n/a'}</span>`,
    time !== undefined && html`<a class="sf-toolbar-item" href="${panelUrl(base, 'time')}" title="Request time">${Math.round(time.duration)} ms</a>`,
    memory !== undefined && html`<span class="sf-toolbar-item" title="Peak memory of the process">${((memory.peakRss ?? memory.rss) / MIB).toFixed(1)} MiB</span>`,
    exceptions > 0 && html`<a class="sf-toolbar-item sf-toolbar-count-error" href="${panelUrl(base, 'exception')}" title="Exceptions">${exceptions} exception${exceptions === 1 ? '' : 's'}</a>`,
    html`<a class="sf-toolbar-item${logClass}" href="${panelUrl(base, 'logger')}" title="Log messages">${logs.length} log${logs.length === 1 ? '' : 's'}${logCounts}</a>`,
    request?.redirect !== undefined &&
      html`<span class="sf-toolbar-item">Redirected from ${request.redirect.route} (<a href="${profileUrl(prefix, request.redirect.token)}">${request.redirect.token}</a>)</span>`,
    request?.forwardToken !== undefined &&
      html`<span class="sf-toolbar-item">Forwarded to ErrorController (<a href="${profileUrl(prefix, request.forwardToken)}">${request.forwardToken}</a>)</span>`,
    html`<a class="sf-toolbar-item sf-toolbar-token" href="${profileUrl(prefix, profile.token)}">${profile.token}</a>`,
  ];
  const nonce = styleNonce === undefined ? '' : html` nonce="${styleNonce}"`;
  // The clearer, in the page's flow, makes room for the fixed bar: the end of the page can be scrolled above it.
  return html`
    <div class="sf-toolbar-clearer"></div>
    <div id="sfwdt${profile.token}" class="sf-toolbar" role="region" aria-label="Symfony Web Debug Toolbar">
      <link rel="stylesheet" href="${prefix}/_profiler/assets/toolbar.css"${nonce}/>
      <div class="sf-toolbar-bar">${items}</div>
    </div>
  `;
}

// Module functions, not closures in Toolbar or its callers: tsx names a closure with a defineProperty call
// each time it is made, and a bound function costs as much.
function profileUrl(prefix: string, token: string): string {
  return `${prefix}/_profiler/${token}`;
}

function panelUrl(base: string, panel: string): string {
  return `${base}?panel=${panel}&type=request`;
}

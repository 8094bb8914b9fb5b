import { readFileSync } from 'node:fs';
import { renderToString } from 'preact-render-to-string';
import type { Request } from '../../http/request.js';
import { escapeHtmlText, html, trustedHtml } from '../../internal/html-template.js';
import type { SourceLinker } from '../../internal/project-source.js';
import type { LogRecord } from '../../logging/log-record.js';
import type { FlatError } from '../flat-error.js';
import { DebugMeta } from './debug-meta.js';
import { renderHtmlComment } from './html-comment.js';
import { channelFilterRules, channelsOf } from './log-filters.js';
import { countProblemLogs, LogsTable } from './logs-table.js';
import { RequestSummary } from './request-summary.js';
import { type ExcerptReader, ExceptionTrace, OmittedCauses, TextTrace } from './trace.js';

// As a character reference: one character outside Latin-1 would make the whole page a two-byte string,
// twice the memory and several times the cost of encoding it for the socket.
const SEPARATOR = '<span class="separator">&#8250;</span>';

/** The exception page's stylesheet; the profiler also serves it, as the reference's exception.css. */
export const EXCEPTION_PAGE_CSS = readFileSync(new URL('../assets/exception-page.css', import.meta.url), 'utf8');
const STYLE = trustedHtml(`<style>${EXCEPTION_PAGE_CSS}</style>`);

export interface ExceptionPageProps {
  error: FlatError;
  logs: readonly LogRecord[];
  /** The request rendering the page: the error sub-request, whose parent, the request that failed, is shown. */
  request: Request;
  readExcerpt: ExcerptReader;
  /** Where frames' files link to (the profiler's source view), when the profiler is there. */
  sourceLink?: SourceLinker;
}

/**
 * The debug page (Symfony's exception_full.html.php): the chain from innermost cause to the error
 * thrown, the status, the message, then tabs for each error's trace, the request's logs, the plain-text
 * traces and the request itself. Tabs switch with CSS only, so the page works under a strict CSP.
 */
export function ExceptionPage({ error, logs, request, readExcerpt, sourceLink }: ExceptionPageProps) {
  const chain = error.toArray();
  const problems = countProblemLogs(logs);
  const channels = channelsOf(logs);
  const channelRules = channelFilterRules(channels);
  // Innermost cause first, each linking to its trace (#trace-box-1 is the outermost error).
  const hierarchy = chain
    .map((item, index) => html`${index < chain.length - 1 && trustedHtml(SEPARATOR)}<a href="#trace-box-${index + 1}"><abbr title="${item.class}">${item.class}</abbr></a>`)
    .reverse();
  // As the reference: plural with a count only when the chain has more than one error.
  const several = chain.length > 1;
  // An error without a message (a bare TooManyRequestsHttpException) keeps the reference's markup, its h1
  // included, and hides that empty heading as the reference does, so no screen reader announces it.
  const head = html`
    <head>
      ${DebugMeta()}
      <title>${trustedHtml(escapeHtmlText(pageTitle(error)))}</title>
      ${STYLE}
      ${channelRules !== '' && trustedHtml(`<style>${channelRules}</style>`)}
    </head>
  `;
  const summary = html`
    <header>
      <div class="container"><h1 class="logo">keel Exception</h1></div>
    </header>
    <div class="${error.message === '' ? 'exception-summary exception-without-message' : 'exception-summary'}">
      <div class="exception-metadata">
        <div class="container">
          <h2 class="exception-hierarchy">${hierarchy}</h2>
          <h2 class="exception-http">HTTP ${error.status} <small>${error.statusText}</small></h2>
        </div>
      </div>
      <div class="container exception-message-wrapper">
        <h1 class="break-long-words exception-message">${trustedHtml(escapeHtmlText(error.message))}</h1>
      </div>
    </div>
  `;
  const navigation = html`
    <div class="tab-navigation">
      <label for="tab-exceptions">${several ? html`Exceptions <span class="badge">${chain.length}</span>` : 'Exception'}</label>
      <label for="tab-logs">Logs <span class="${problems > 0 ? 'badge status-error' : 'badge'}">${problems > 0 ? problems : logs.length}</span></label>
      <label for="tab-traces">${several ? html`Stack Traces <span class="badge">${chain.length}</span>` : 'Stack Trace'}</label>
      <label for="tab-request">Request</label>
    </div>
  `;
  const traces = chain.map((item, index) => ExceptionTrace({ error: item, position: index + 1, showMessage: index > 0, readExcerpt, sourceLink }));
  const textTraces = chain.map(
    (item, index) => html`
      <div class="trace trace-as-text">
        <div class="text-muted">[${chain.length - index}/${chain.length}]</div>
        ${TextTrace({ error: item })}
      </div>
    `,
  );
  return html`
    <html lang="en">
      ${head}
      <body>
        ${summary}
        <div class="container tabs">
          <input type="radio" name="tab" id="tab-exceptions" checked/>
          <input type="radio" name="tab" id="tab-logs"/>
          <input type="radio" name="tab" id="tab-traces"/>
          <input type="radio" name="tab" id="tab-request"/>
          ${navigation}
          <div class="tab-panel panel-exceptions">${traces}${OmittedCauses({ chain })}</div>
          <div class="tab-panel panel-logs">${LogsTable({ logs, channels })}</div>
          <div class="tab-panel panel-traces">${textTraces}</div>
          <div class="tab-panel panel-request">${RequestSummary({ request: request.parent ?? request })}</div>
        </div>
      </body>
    </html>
  `;
}

/** `<message> (<status> <status text>)`: the page's title and the comment around the document. */
export function pageTitle(error: FlatError): string {
  return `${error.message} (${error.status} ${error.statusText})`;
}

/**
 * The whole document. The title is repeated as a comment on the first and last lines, as the reference
 * does, so that a truncated log or terminal dump of the body still says what went wrong.
 */
export function renderExceptionPage(props: ExceptionPageProps): string {
  const comment = renderHtmlComment(pageTitle(props.error));
  return `${comment}\n<!DOCTYPE html>\n${renderToString(ExceptionPage(props))}\n${comment}\n`;
}

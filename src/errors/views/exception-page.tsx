/** @jsxRuntime automatic @jsxImportSource preact */
import { DebugMeta } from './debug-meta.js';
import { readFileSync } from 'node:fs';
import { renderToString } from 'preact-render-to-string';
import type { Request } from '../../http/request.js';
import type { LogRecord } from '../../logging/log-record.js';
import type { FlatError } from '../flat-error.js';
import { renderHtmlComment } from './html-comment.js';
import { countProblemLogs, LogsTable } from './logs-table.js';
import { RequestSummary } from './request-summary.js';
import { type ExcerptReader, ExceptionTrace, TextTrace } from './trace.js';

// As a character reference: one character outside Latin-1 would make the whole page a two-byte string,
// twice the memory and several times the cost of encoding it for the socket.
const SEPARATOR = { __html: '&#8250;' };

/** The exception page's stylesheet; the profiler also serves it, as the reference's exception.css. */
export const EXCEPTION_PAGE_CSS = readFileSync(new URL('../assets/exception-page.css', import.meta.url), 'utf8');

export interface ExceptionPageProps {
  error: FlatError;
  logs: readonly LogRecord[];
  request: Request;
  readExcerpt: ExcerptReader;
}

/**
 * The debug page (Symfony's exception_full.html.php): the chain from innermost cause to the error
 * thrown, the status, the message, then tabs for each error's trace, the request's logs, the plain-text
 * traces and the request itself. Tabs switch with CSS only, so the page works under a strict CSP.
 */
export function ExceptionPage({ error, logs, request, readExcerpt }: ExceptionPageProps) {
  const chain = error.toArray();
  const problems = countProblemLogs(logs);
  return (
    <html lang="en">
      <head>
        <DebugMeta />
        <title>{pageTitle(error)}</title>
        <style dangerouslySetInnerHTML={{ __html: EXCEPTION_PAGE_CSS }} />
      </head>
      <body>
        <header>
          <div class="container">
            <h1 class="logo">keel Exception</h1>
          </div>
        </header>
        <div class="exception-summary">
          <div class="exception-metadata">
            <div class="container">
              <h2 class="exception-hierarchy">
                {[...chain].reverse().map((item, index) => (
                  <>
                    {index > 0 && <span class="separator" dangerouslySetInnerHTML={SEPARATOR} />}
                    <a href={`#trace-box-${chain.indexOf(item) + 1}`}>
                      <abbr title={item.class}>{item.class}</abbr>
                    </a>
                  </>
                ))}
              </h2>
              <h2 class="exception-http">
                HTTP {error.status} <small>{error.statusText}</small>
              </h2>
            </div>
          </div>
          <div class="container">
            <h1 class="break-long-words exception-message">{error.message}</h1>
          </div>
        </div>
        <div class="container tabs">
          <input type="radio" name="tab" id="tab-exceptions" checked />
          <input type="radio" name="tab" id="tab-logs" />
          <input type="radio" name="tab" id="tab-traces" />
          <input type="radio" name="tab" id="tab-request" />
          <div class="tab-navigation">
            {/* As the reference: plural with a count only when the chain has more than one error. */}
            <label for="tab-exceptions">{chain.length > 1 ? <>Exceptions <span class="badge">{chain.length}</span></> : 'Exception'}</label>
            <label for="tab-logs">
              Logs <span class={problems > 0 ? 'badge status-error' : 'badge'}>{problems > 0 ? problems : logs.length}</span>
            </label>
            <label for="tab-traces">{chain.length > 1 ? <>Stack Traces <span class="badge">{chain.length}</span></> : 'Stack Trace'}</label>
            <label for="tab-request">Request</label>
          </div>
          <div class="tab-panel panel-exceptions">
            {chain.map((item, index) => (
              <ExceptionTrace error={item} position={index + 1} showMessage={index > 0} readExcerpt={readExcerpt} />
            ))}
          </div>
          <div class="tab-panel panel-logs">
            <LogsTable logs={logs} />
          </div>
          <div class="tab-panel panel-traces">
            {chain.map((item, index) => (
              <div class="trace trace-as-text">
                <div class="text-muted">
                  [{chain.length - index}/{chain.length}]
                </div>
                <TextTrace error={item} />
              </div>
            ))}
          </div>
          <div class="tab-panel panel-request">
            <RequestSummary request={request} />
          </div>
        </div>
      </body>
    </html>
  );
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
  return `${comment}\n<!DOCTYPE html>\n${renderToString(<ExceptionPage {...props} />)}\n${comment}\n`;
}

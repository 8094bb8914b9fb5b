import { basename, dirname, sep } from 'node:path';
import { renderToString } from 'preact-render-to-string';
import { flatString } from '../../internal/flat-string.js';
import { asciiHtml, escapeHtmlText, html, trustedHtml } from '../../internal/html-template.js';
import type { SourceLinker } from '../../internal/project-source.js';
import type { SourceLine } from '../../internal/source-excerpt.js';
import { type FlatError, MAX_CHAIN } from '../flat-error.js';
import type { StackFrame } from '../stack-frame.js';

export type ExcerptReader = (file: string, line: number) => readonly SourceLine[];

export interface ExceptionTraceProps {
  error: FlatError;
  /** 1-based position in the chain, for anchors (`#trace-box-1` is the outermost error). */
  position: number;
  /** Whether to print the message (the outermost one is the page's h1 already). */
  showMessage: boolean;
  readExcerpt: ExcerptReader;
  /** Where a frame's file links to (the profiler's source view), when the profiler is there to open it. */
  sourceLink?: SourceLinker;
}

/** One error of the chain: its class, message and frames, the application's frames opened on their source. */
export function ExceptionTrace({ error, position, showMessage, readExcerpt, sourceLink }: ExceptionTraceProps) {
  const dot = error.class.lastIndexOf('.');
  let frames = '';
  // As the reference: the first of the application's frames opens on its source, the others start closed.
  let opened = false;
  for (const frame of error.trace) {
    const rendered = renderTraceLine(frame, readExcerpt, sourceLink?.(frame.file, frame.line), !opened);
    opened ||= rendered.open;
    frames += rendered.html;
  }
  return html`
    <div class="trace trace-as-html" id="trace-box-${position}">
      <h3 class="trace-class">${dot !== -1 && html`<span class="trace-namespace">${error.class.slice(0, dot + 1)}</span>`}${error.class.slice(dot + 1)}</h3>
      ${showMessage && error.message !== '' && html`<p class="break-long-words trace-message">${trustedHtml(escapeHtmlText(error.message))}</p>`}
      ${error.file !== '' && error.trace.length === 0 && FilePath({ file: error.file, line: error.line })}
      ${trustedHtml(frames)}
    </div>
  `;
}

// A frame's markup depends on the frame and its source lines only, and the same few frames (the router's
// 404, a controller's usual failure) come back on every error page: each is rendered once, escaped by
// preact, and reused while its source lines are the same. Keyed by the frame itself: parseStack shares one
// frozen frame per call site, and the entries go with the frames. A frame has two markups, opened and
// closed: an error and its cause share frames (see shareFrames), and a frame opened in one trace is closed
// in the other, which with one entry per frame rendered the router's 404 frame anew twice a page.
interface RenderedFrame {
  lines: readonly string[];
  href: string | undefined;
  open: boolean;
  html: string;
}
type FrameMarkups = [closed: RenderedFrame | undefined, opened: RenderedFrame | undefined];
const renderedFrames = new WeakMap<ExcerptReader, WeakMap<StackFrame, FrameMarkups>>();

/** A frame's markup, opened on its source when `mayOpen` and it is the application's with source to show (exported for its tests). */
export function renderTraceLine(frame: StackFrame, readExcerpt: ExcerptReader, href: string | undefined, mayOpen: boolean): { html: string; open: boolean } {
  const excerpt = frame.inApp ? readExcerpt(frame.file, frame.line) : [];
  const open = mayOpen && frame.inApp && excerpt.length > 0;
  // A frame read back from a profile record is a new object on every read: kept, it would never be met
  // again, and making it flat (a copy through JSON, ~100 µs a trace) would be paid for nothing.
  if (!Object.isFrozen(frame)) return { html: asciiHtml(renderToString(TraceLine({ frame, excerpt, href, open }))), open };
  let rendered = renderedFrames.get(readExcerpt);
  if (rendered === undefined) renderedFrames.set(readExcerpt, (rendered = new WeakMap()));
  let markups = rendered.get(frame);
  if (markups === undefined) rendered.set(frame, (markups = [undefined, undefined]));
  const hit = markups[open ? 1 : 0];
  if (hit !== undefined && hit.href === href && sameLines(hit.lines, excerpt)) return hit;
  // Flat: it is written inside a new page every time (see flatString). ASCII: source excerpts bring
  // comments' `§` and `→` into a page otherwise all ASCII (see asciiHtml).
  const markup = flatString(asciiHtml(renderToString(TraceLine({ frame, excerpt, href, open }))));
  const entry = { lines: excerpt.map((line) => line.text), href, open, html: markup };
  markups[open ? 1 : 0] = entry;
  return entry;
}

function sameLines(lines: readonly string[], excerpt: readonly SourceLine[]): boolean {
  if (lines.length !== excerpt.length) return false;
  for (let i = 0; i < lines.length; i++) if (lines[i] !== excerpt[i]!.text) return false;
  return true;
}

function TraceLine({ frame, excerpt, href, open }: { frame: StackFrame; excerpt: readonly SourceLine[]; href: string | undefined; open: boolean }) {
  // A long line scrolls the excerpt sideways: focusable, so a keyboard can scroll it too.
  const code =
    excerpt.length > 0 &&
    html`<ol class="trace-code" start="${excerpt[0]!.number}" tabindex="0">${excerpt.map((line) => html`<li${line.selected ? html` class="selected"` : ''}><code>${line.text}</code></li>`)}</ol>`;
  return html`
    <details class="${frame.inApp ? 'trace-line' : 'trace-line vendor'}"${open ? html` open` : ''}>
      <summary class="break-long-words">
        ${frame.function !== '' && html`<span class="trace-method">${frame.function}</span>`}
        ${FilePath({ file: frame.file, line: frame.line, href })}
      </summary>
      ${code}
    </details>
  `;
}

// The file's path, a link to the profiler's view of it when there is one (as the reference's file links).
function FilePath({ file, line, href }: { file: string; line: number; href?: string | undefined }) {
  const internal = file.startsWith('node:');
  // The folder relative to the project, as the reference writes it (`src/<strong>Controller.php</strong>`).
  const path = html`${internal ? '' : projectRelative(dirname(file) + sep)}<strong>${internal ? file : basename(file)}</strong>`;
  return html`<span class="trace-file-path">in ${href === undefined ? path : html`<a href="${href}">${path}</a>`} (line ${line})</span>`;
}

/**
 * The chain as plain text, for copying into a bug report (the reference's "Stack Traces" tab), as the
 * markup of a `<pre>`: the error's own lines rendered on each page, the frames below the first rendered
 * once per frame list. Both are escaped by preact.
 */
export function TextTrace({ error }: { error: FlatError }) {
  return html`<pre class="stacktrace">${trustedHtml(escapeHtmlText(`${error.class}:\n${error.message}\n  at ${projectRelative(error.file)}:${error.line}`))}${trustedHtml(callersMarkup(error.trace))}</pre>`;
}

// The frames below the first, by frame list: the list is shared by every error of a code path (see parseStack).
const callersMarkups = new WeakMap<readonly StackFrame[], string>();

function callersMarkup(trace: readonly StackFrame[]): string {
  let markup = callersMarkups.get(trace);
  if (markup === undefined) {
    const text = trace
      .slice(1)
      .map((frame) => `\n  at ${frame.function === '' ? '<anonymous>' : frame.function}()\n     (${projectRelative(frame.file)}:${frame.line})`)
      .join('');
    // Flat: it is written inside a new page every time (see flatString).
    markup = flatString(renderToString(html`${text}`));
    callersMarkups.set(trace, markup);
  }
  return markup;
}

// Files of the project written relative to it, as the reference's text trace writes them (`src/app.ts`);
// anything else (node: internals, files elsewhere) as it is.
function projectRelative(file: string): string {
  const root = process.cwd() + sep;
  return file.startsWith(root) ? file.slice(root.length) : file;
}

/** What a chain cut at MAX_CHAIN errors left out, said below it; nothing for a chain shown whole. */
export function OmittedCauses({ chain }: { chain: readonly FlatError[] }) {
  const omitted = chain.at(-1)?.omittedCauses ?? 0;
  if (omitted === 0) return '';
  return html`<p class="trace-omitted">${omitted} earlier exception${omitted === 1 ? '' : 's'} of the chain ${omitted === 1 ? 'is' : 'are'} not shown: the first ${MAX_CHAIN} are.</p>`;
}

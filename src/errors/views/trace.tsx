/** @jsxImportSource preact */
import { basename, dirname, sep } from 'node:path';
import type { SourceLine } from '../../internal/source-excerpt.js';
import type { FlatError } from '../flat-error.js';
import type { StackFrame } from '../stack-frame.js';

export type ExcerptReader = (file: string, line: number) => SourceLine[];

export interface ExceptionTraceProps {
  error: FlatError;
  /** 1-based position in the chain, for anchors (`#trace-box-1` is the outermost error). */
  position: number;
  /** Whether to print the message (the outermost one is the page's h1 already). */
  showMessage: boolean;
  readExcerpt: ExcerptReader;
}

/** One error of the chain: its class, message and frames, the application's frames opened on their source. */
export function ExceptionTrace({ error, position, showMessage, readExcerpt }: ExceptionTraceProps) {
  const dot = error.class.lastIndexOf('.');
  return (
    <div class="trace trace-as-html" id={`trace-box-${position}`}>
      <h3 class="trace-class">
        {dot !== -1 && <span class="trace-namespace">{error.class.slice(0, dot + 1)}</span>}
        {error.class.slice(dot + 1)}
      </h3>
      {showMessage && <p class="break-long-words trace-message">{error.message}</p>}
      {error.file !== '' && error.trace.length === 0 && <FilePath file={error.file} line={error.line} />}
      {error.trace.map((frame) => (
        <TraceLine frame={frame} readExcerpt={readExcerpt} />
      ))}
    </div>
  );
}

function TraceLine({ frame, readExcerpt }: { frame: StackFrame; readExcerpt: ExcerptReader }) {
  const excerpt = frame.inApp ? readExcerpt(frame.file, frame.line) : [];
  return (
    <details class={frame.inApp ? 'trace-line' : 'trace-line vendor'} open={frame.inApp && excerpt.length > 0}>
      <summary class="break-long-words">
        {frame.function !== '' && <span class="trace-method">{frame.function}</span>}
        <FilePath file={frame.file} line={frame.line} />
      </summary>
      {excerpt.length > 0 && (
        <ol class="trace-code" start={excerpt[0]!.number}>
          {excerpt.map((line) => (
            <li class={line.selected ? 'selected' : undefined}>
              <code>{line.text}</code>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

function FilePath({ file, line }: { file: string; line: number }) {
  const directory = file.startsWith('node:') ? '' : dirname(file) + sep;
  return (
    <span class="trace-file-path">
      in {directory}
      <strong>{file.startsWith('node:') ? file : basename(file)}</strong> (line {line})
    </span>
  );
}

/** The chain as plain text, for copying into a bug report (the reference's "Stack Traces" tab). */
export function formatTextTrace(error: FlatError): string {
  const lines = [`${error.class}:`, error.message, `  at ${error.file}:${error.line}`];
  for (const frame of error.trace.slice(1)) {
    lines.push(`  at ${frame.function === '' ? '<anonymous>' : frame.function}()`, `     (${frame.file}:${frame.line})`);
  }
  return lines.join('\n');
}

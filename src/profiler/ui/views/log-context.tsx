/** @jsxRuntime automatic @jsxImportSource preact */
import type { StackFrame } from '../../../errors/stack-frame.js';
import { shownContext, TRACE_IN_EXCEPTION_PANEL } from '../../../logging/shown-context.js';

/**
 * A log record's context, folded as the reference folds it: its JSON behind "Show context", then the stack
 * trace of each error in it behind "Show trace", written as text when the panel is shown. The trace is left
 * out of the JSON, where its frames would bury the other keys. The toggles are <details>, which open with no
 * script, so the profiler's pages need no script and no CSP exception for them.
 */
export function LogContext({ context }: { context: Record<string, unknown> }) {
  // Masked here too: a record is readable as soon as it is collected, its masked copy made only once the
  // response is over (a stream may take minutes). Masking twice changes nothing.
  const shown = shownContext(context);
  const traces: { key: string; frames: readonly StackFrame[] }[] = [];
  const inExceptionPanel: string[] = [];
  for (const [key, value] of Object.entries(context)) {
    const summary = shown[key];
    if (typeof summary !== 'object' || summary === null) continue;
    if ((value as { trace?: unknown } | null)?.trace === TRACE_IN_EXCEPTION_PANEL) {
      delete (summary as Record<string, unknown>)['trace'];
      inExceptionPanel.push(key);
      continue;
    }
    const frames = framesOf(value);
    if (frames === undefined) continue;
    delete (summary as Record<string, unknown>)['trace'];
    traces.push({ key, frames });
  }
  return (
    <div class="log-metadata">
      <details class="log-context">
        <Toggle show="Show context" hide="Hide context" />
        <pre>{JSON.stringify(shown, null, 2)}</pre>
      </details>
      {inExceptionPanel.map((key) => (
        <p class="log-trace">The trace of {key} is in the Exception panel: it is the request's own error.</p>
      ))}
      {traces.map(({ key, frames }) => (
        <details class="log-trace">
          <Toggle show={`Show trace (${key})`} hide={`Hide trace (${key})`} />
          <pre>{frames.length === 0 ? 'No stack frames.' : frames.map((frame) => `at ${frame.function === '' ? '<anonymous>' : frame.function} (${frame.file}:${frame.line})`).join('\n')}</pre>
        </details>
      ))}
    </div>
  );
}

// Both labels are written, the stylesheet showing the one that fits whether the <details> is open: the
// reference's toggles say "Hide context" once opened (its data-toggle-alt-content), with a script.
function Toggle({ show, hide }: { show: string; hide: string }) {
  return (
    <summary>
      <span class="toggle-show">{show}</span>
      <span class="toggle-hide">{hide}</span>
    </summary>
  );
}

// The frames the logger collector stored with an error (see shownContext's `traces`); none for a record not
// stored yet, whose error is still an Error, nor for one recorded before traces were kept.
function framesOf(value: unknown): readonly StackFrame[] | undefined {
  if (typeof value !== 'object' || value === null || value instanceof Error) return undefined;
  const { trace } = value as { trace?: unknown };
  return Array.isArray(trace) && trace.every(isFrame) ? trace : undefined;
}

function isFrame(value: unknown): value is StackFrame {
  const frame = value as Partial<StackFrame> | null;
  return typeof frame === 'object' && frame !== null && typeof frame.function === 'string' && typeof frame.file === 'string' && typeof frame.line === 'number';
}

/** @jsxRuntime automatic @jsxImportSource preact */
import { FlatError } from '../../../../errors/flat-error.js';
import { ExceptionTrace, OmittedCauses, TextTrace } from '../../../../errors/views/trace.js';
import { readSourceExcerpt } from '../../../../internal/source-excerpt.js';
import type { ExceptionData, ExceptionLink } from '../../../collectors/exception-collector.js';
import type { PanelProps } from './panel.js';

/**
 * The error chain, outermost first, drawn by the error page's own trace view: each application frame
 * opens on its source, read when the panel is shown (tsx maps the frames to the `.ts` files). Below it,
 * the same chain as plain text (the reference's "Stack Trace" tab), which is what a bug report needs:
 * the folded frames of the view above cannot be copied in one selection.
 */
export function ExceptionPanel({ data, sourceLink }: PanelProps<ExceptionData>) {
  if (data.chain.length === 0) {
    return (
      <div class="empty">
        <p>No exception was thrown and caught during the request.</p>
      </div>
    );
  }
  const chain = toFlatError(data.chain).toArray();
  return (
    <div class="exception-panel">
      <h2>Exceptions {data.chain.length}</h2>
      <p class="exception-http">
        HTTP {chain[0]!.status} {chain[0]!.statusText}
      </p>
      {/* An error may have no message (a bare TooManyRequestsHttpException): no empty heading then. */}
      {chain[0]!.message !== '' && <h3 class="exception-message">{chain[0]!.message}</h3>}
      {chain.map((error, index) => (
        <ExceptionTrace error={error} position={index + 1} showMessage={index > 0} readExcerpt={readSourceExcerpt} sourceLink={sourceLink} />
      ))}
      <OmittedCauses chain={chain} />
      <h3>{chain.length > 1 ? 'Stack Traces' : 'Stack Trace'}</h3>
      {chain.map((error, index) => (
        <div class="trace trace-as-text">
          <p class="trace-position">
            [{chain.length - index}/{chain.length}]
          </p>
          <TextTrace error={error} />
        </div>
      ))}
    </div>
  );
}

// Records hold plain data (they outlive the process); the trace view reads a FlatError chain.
function toFlatError(chain: readonly ExceptionLink[]): FlatError {
  let previous: FlatError | undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i]!;
    previous = new FlatError({
      class: link.className,
      message: link.message,
      code: link.code,
      expose: false,
      status: link.status,
      statusText: link.statusText,
      headers: {},
      extensions: {},
      file: link.file,
      line: link.line,
      trace: link.trace,
      previous,
      omittedCauses: link.omittedCauses,
    });
  }
  return previous!;
}

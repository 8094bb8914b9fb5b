import type { ExceptionData } from '../../../collectors/exception-collector.js';
import type { PanelProps } from './panel.js';

/** The error chain, outermost first, each with its trace. */
export function ExceptionPanel({ data }: PanelProps<ExceptionData>) {
  if (data.chain.length === 0) return <p class="empty">No exception was thrown and caught.</p>;
  return (
    <div>
      <h2>Exceptions {data.chain.length}</h2>
      {data.chain.map((link) => (
        <section class="exception">
          <h3>{link.className}</h3>
          <p>
            HTTP {link.status} {link.statusText}
          </p>
          <pre>{link.message}</pre>
          <p>
            in {link.file} (line {link.line})
          </p>
          <ol class="trace">
            {link.trace.map((frame) => (
              <li class={frame.inApp ? 'in-app' : 'vendor'}>
                {frame.function === '' ? '(top level)' : frame.function} in {frame.file}:{frame.line}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

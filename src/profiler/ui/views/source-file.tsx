/** @jsxRuntime automatic @jsxImportSource preact */
import { Layout } from './layout.js';

export interface SourceFileProps {
  /** The path as asked for, relative to the project directory. */
  file: string;
  lines: readonly string[];
  /** The line to show selected (the frame's), 0 for none. */
  line: number;
  base: string;
}

/** A project source file with numbered lines, the frame's line selected (Symfony's open.html.twig). */
export function SourceFile({ file, lines, line, base }: SourceFileProps) {
  return (
    <Layout base={base} title={`${file} · Profiler`}>
      <div id="panel" class="source-file">
        <h2>{file}</h2>
        <ol class="trace-code">
          {lines.map((text, index) => (
            <li id={`line${index + 1}`} class={index + 1 === line ? 'selected' : undefined} value={index + 1}>
              <code>{text}</code>
            </li>
          ))}
        </ol>
      </div>
    </Layout>
  );
}

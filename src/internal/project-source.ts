import { isAbsolute, relative, sep } from 'node:path';
import { BoundedMap, memoizeBounded } from './bounded-map.js';
import { editorUrl } from './editor-links.js';

/**
 * A file's path relative to the project directory, with `/` separators, when the profiler's source view
 * would open it: inside the project, no segment starting with a dot (the view refuses `..` and `.env`
 * alike). Undefined for any other file (node's internals, a file elsewhere).
 * @example projectPath('/app', '/app/src/home.ts') // 'src/home.ts'
 */
export function projectPath(projectDir: string, file: string): string | undefined {
  if (!isAbsolute(file)) return undefined;
  const path = relative(projectDir, file);
  if (path === '' || isAbsolute(path)) return undefined;
  const segments = path.split(sep);
  return segments.some((segment) => segment.startsWith('.')) ? undefined : segments.join('/');
}

/**
 * The profiler's source view of a project file at a line (Symfony's `_profiler_open_file`, which its file
 * links lead to when no editor is configured), scrolled to that line. Host-relative, behind `prefix`.
 */
export function sourceViewUrl(prefix: string, path: string, line: number): string {
  return `${prefix}/_profiler/open?file=${encodeURIComponent(path)}&line=${line}#line${line}`;
}

/** The source view's URL for a file and line, or undefined for a file it does not open. */
export type SourceLinker = (file: string, line: number) => string | undefined;

// By project directory, then by file: a debug page links the same few dozen files on every error. The
// file names are the stack frames' own strings, the same on every page, whose hashes V8 keeps: a key
// joining directory and file was a new string per frame, hashed anew each time (~0.25 µs a frame, 6 times the lookup now).
const knownPathsByProject = new BoundedMap<string, (file: string) => string | undefined>(16);

function knownPathsIn(projectDir: string): (file: string) => string | undefined {
  let known = knownPathsByProject.get(projectDir);
  if (known === undefined) knownPathsByProject.set(projectDir, (known = memoizeBounded(4096, (file: string) => projectPath(projectDir, file))));
  return known;
}

/**
 * A SourceLinker: with an editor's link format (KEEL_EDITOR), to any file in the editor; without, to the
 * project's files in the profiler's source view, behind `prefix`.
 */
export function projectSourceLinker(prefix: string, projectDir: string, editor?: string): SourceLinker {
  if (editor !== undefined) return (file, line) => (isAbsolute(file) ? editorUrl(editor, file, line) : undefined);
  const knownPaths = knownPathsIn(projectDir);
  return (file, line) => {
    const path = knownPaths(file);
    return path === undefined ? undefined : sourceViewUrl(prefix, path, line);
  };
}

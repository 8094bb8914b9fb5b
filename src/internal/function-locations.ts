import type { Session as InspectorSession } from 'node:inspector';
import { createRequire, findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where a function is defined: its file (a path; a URL for a module that is no file) and 1-based line. */
export interface SourceLocation {
  file: string;
  line: number;
}

interface ScriptPosition {
  scriptId: string;
  lineNumber: number;
  columnNumber: number;
}

type Post = (method: string, params?: object) => Record<string, unknown>;

/**
 * Where each function is defined, as a debugger finds it: JavaScript gives a function's source position to
 * no one but the inspector. One in-process inspector session (its calls answer synchronously) asks for each
 * function's location, then the scripts' URLs once, and the source maps node keeps (tsx's, tsc's with
 * --enable-source-maps) turn positions in the compiled code into lines of the TypeScript source. A bound
 * function is located by its target; a built-in one, or any failure of the inspector, gives undefined.
 * Tens of milliseconds for a whole application: for tools (the profiler's events panel), never a request.
 * @example locateFunctions([listener]) // [{ file: '/app/src/audit-listener.ts', line: 12 }]
 */
export function locateFunctions(functions: readonly unknown[]): (SourceLocation | undefined)[] {
  let session: InspectorSession;
  try {
    // Loaded here, not imported: a node built without the inspector throws on loading it, and that must
    // cost the source links only, never the application's start.
    const { Session } = createRequire(import.meta.url)('node:inspector') as typeof import('node:inspector');
    session = new Session();
    session.connect();
  } catch {
    return functions.map(() => undefined);
  }
  try {
    const post: Post = (method, params = {}) => {
      let answer: Record<string, unknown> | undefined;
      let failure: Error | null = null;
      session.post(method, params, (error, result) => {
        failure = error;
        answer = result as Record<string, unknown>;
      });
      if (failure !== null || answer === undefined) throw failure ?? new Error(`${method} did not answer synchronously`);
      return answer;
    };
    const positions = functions.map((fn) => (typeof fn === 'function' ? positionOf(post, fn) : undefined));
    if (positions.every((position) => position === undefined)) return positions.map(() => undefined);
    const urls = scriptUrls(post);
    return positions.map((position) => (position === undefined ? undefined : sourceLocation(urls.get(position.scriptId), position)));
  } catch {
    return functions.map(() => undefined);
  } finally {
    session.disconnect();
  }
}

// The inspector names objects by id: the function is reached through a global property for the moment it
// takes to get one, under a name no application uses.
const HANDLE = `__keelLocate${process.pid}`;

function positionOf(post: Post, fn: unknown): ScriptPosition | undefined {
  const global = globalThis as Record<string, unknown>;
  global[HANDLE] = fn;
  let objectId: string | undefined;
  try {
    objectId = (post('Runtime.evaluate', { expression: `globalThis.${HANDLE}` })['result'] as { objectId?: string }).objectId;
  } finally {
    delete global[HANDLE];
  }
  return objectId === undefined ? undefined : positionOfObject(post, objectId, true);
}

function positionOfObject(post: Post, objectId: string, followBound: boolean): ScriptPosition | undefined {
  try {
    const internals = (post('Runtime.getProperties', { objectId, ownProperties: true })['internalProperties'] ?? []) as { name: string; value?: { value?: unknown; objectId?: string } }[];
    const location = internals.find(({ name }) => name === '[[FunctionLocation]]')?.value?.value as ScriptPosition | undefined;
    if (location !== undefined) return location;
    // A bound function has no code of its own: where its target is.
    const target = internals.find(({ name }) => name === '[[TargetFunction]]')?.value?.objectId;
    return followBound && target !== undefined ? positionOfObject(post, target, false) : undefined;
  } finally {
    post('Runtime.releaseObject', { objectId });
  }
}

// The URL of every script that has code, from the coverage V8 keeps anyway: no profiler or debugger to start.
function scriptUrls(post: Post): Map<string, string> {
  const scripts = post('Profiler.getBestEffortCoverage')['result'] as { scriptId: string; url: string }[];
  return new Map(scripts.map(({ scriptId, url }) => [scriptId, url]));
}

function sourceLocation(url: string | undefined, { lineNumber, columnNumber }: ScriptPosition): SourceLocation | undefined {
  if (url === undefined || url === '' || url.startsWith('node:')) return undefined;
  const entry = findSourceMap(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource !== undefined && entry.originalLine !== undefined) return { file: asPath(entry.originalSource), line: entry.originalLine + 1 };
  return { file: asPath(url), line: lineNumber + 1 };
}

function asPath(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

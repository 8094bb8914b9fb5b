import { findSourceMap, type SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// Frames already written out, by everything that decides their text. Bounded: a long-running dev server
// sees a few thousand distinct call sites at most; past that the cache starts over.
const frames = new Map<string, string>();
const MAX_FRAMES = 10_000;
let installed = false;

/**
 * Makes source-mapped stack traces cheap when the same call sites keep throwing (every 404 of a dev server
 * fails through the same frames). With source maps on (tsx turns them on), Node maps each frame of each
 * stack anew when `error.stack` is first read: about 7 µs a frame, 70 µs an error, so half the cost of a
 * debug 404 page was spent there. This formats stacks as Node's own source-mapped formatter does
 * (prepareStackTraceWithSourceMaps, Node 20) but keeps each frame's text, keyed by the raw position and
 * names that decide it. Only installed over Node's default formatter: a custom Error.prepareStackTrace set
 * by the application (or a tool) is left alone. Idempotent.
 */
export function installSourceMappedStackCache(): void {
  if (installed || !process.sourceMapsEnabled) return;
  const original = Error.prepareStackTrace;
  if (original === undefined || original.name !== 'ErrorPrepareStackTrace') return;
  installed = true;
  Error.prepareStackTrace = function prepareStackTrace(error: Error, trace: NodeJS.CallSite[]): string {
    // Node's own errors get `Name [CODE]: message`, which needs a marker only Node can see: leave them to it.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_')) return original(error, trace) as string;
    try {
      return formatStack(error, trace);
    } catch {
      return original(error, trace) as string;
    }
  };
}

/** The stack Node's source-mapped formatter would write for this error and these call sites. */
export function formatStack(error: Error, trace: NodeJS.CallSite[]): string {
  let text = Error.prototype.toString.call(error);
  for (let i = 0; i < trace.length; i++) text += `\n    at ${frameText(trace[i]!, trace[i + 1])}`;
  return text;
}

/**
 * A frame's text, from the cache when the same call site was written before. The key holds everything
 * Node's text depends on; the enclosing function's position is not in it, as the frame's own position fixes it.
 */
function frameText(site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string {
  const file = site.getFileName() ?? site.getEvalOrigin();
  const sameFileCaller = caller !== undefined && caller.getFileName() === site.getFileName();
  const functionName = site.getFunctionName();
  const key = `${file}\u0000${site.getLineNumber()}:${site.getColumnNumber()}\u0000${functionName}\u0000${functionName === null ? site.getMethodName() : ''}\u0000${site.getTypeName()}\u0000${site.isAsync()}${site.isConstructor()}\u0000${sameFileCaller ? `${caller.getLineNumber()}:${caller.getColumnNumber()}` : ''}`;
  let text = frames.get(key);
  if (text === undefined) {
    const map = file === undefined ? undefined : findSourceMap(file);
    text = map === undefined ? String(site) : mapFrame(map, site, sameFileCaller ? caller : undefined);
    if (frames.size >= MAX_FRAMES) frames.clear();
    frames.set(key, text);
  }
  return text;
}

// Node 20's serializeJSStackFrame: the original position, and the original symbol name when the map has one.
function mapFrame(map: SourceMap, site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string {
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (line === null || column === null) return String(site);
  const entry = map.findEntry(line - 1, column - 1) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return String(site);
  const name = originalSymbolName(map, site, caller);
  const typeName = site.getTypeName();
  const originalName = `${typeName !== null && typeName !== 'global' ? `${typeName}.` : ''}${(site.getFunctionName() ?? site.getMethodName()) || '<anonymous>'}`;
  const kind = site.isAsync() ? 'async ' : site.isConstructor() ? 'new ' : '';
  const mappedName = name && name !== originalName ? name : originalName;
  const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : entry.originalSource;
  return `${kind}${mappedName} (${source}:${entry.originalLine + 1}:${entry.originalColumn + 1})`;
}

function originalSymbolName(map: SourceMap, site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string | undefined {
  const enclosingLine = site.getEnclosingLineNumber();
  const enclosingColumn = site.getEnclosingColumnNumber();
  if (enclosingLine !== null && enclosingColumn !== null) {
    const enclosing = map.findEntry(enclosingLine - 1, enclosingColumn - 1) as { name?: string };
    if (enclosing.name) return enclosing.name;
  }
  if (caller === undefined) return undefined;
  const callerLine = caller.getLineNumber();
  const callerColumn = caller.getColumnNumber();
  if (callerLine === null || callerColumn === null) return undefined;
  return (map.findEntry(callerLine - 1, callerColumn - 1) as { name?: string }).name;
}

import { findSourceMap, type SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// Frames already written out: by file, then by position, then by everything else that decides their text
// (the same code reached with another receiver type, as a constructor, resumed after an await...). Numbers
// and a short list instead of one string key per frame: building and hashing that key cost as much as all
// the call-site questions together. Bounded: a long-running dev server sees a few thousand distinct call
// sites at most; past that the cache starts over.
interface FrameVariant {
  functionName: string | null;
  methodName: string | null;
  typeName: string | null;
  /** 1: async, 2: constructor. */
  kind: number;
  /** The caller's position when it is in the same file (it can name the frame), else -1. */
  callerPosition: number;
  text: string;
}
const frames = new Map<string | undefined, Map<number, FrameVariant[]>>();
let cachedFrames = 0;
const MAX_FRAMES = 10_000;
// Positions as one number: line × 2³² + column, exact for any line below 2²¹.
const LINE_FACTOR = 0x100000000;
const MAX_LINE = 0x200000;
const UNPACKABLE = -3;
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
  // Each site is located once, though it is asked about twice: as a frame, then as the caller of the one before.
  let frame = trace.length > 0 ? locate(trace[0]!) : undefined;
  for (let i = 0; frame !== undefined; i++) {
    const caller = i + 1 < trace.length ? locate(trace[i + 1]!) : undefined;
    text += `\n    at ${frameText(frame, caller)}`;
    frame = caller;
  }
  return text;
}

/** A call site with what every frame text needs of it and of its caller: its file and its position. */
interface LocatedSite {
  site: NodeJS.CallSite;
  fileName: string | undefined;
  position: number;
}

function locate(site: NodeJS.CallSite): LocatedSite {
  return { site, fileName: site.getFileName() ?? undefined, position: positionOf(site) };
}

/** A frame's text, from the cache when the same call site was written before (see FrameVariant). */
function frameText({ site, fileName, position }: LocatedSite, caller: LocatedSite | undefined): string {
  const file = fileName ?? site.getEvalOrigin();
  const sameFileCaller = caller !== undefined && caller.fileName === fileName;
  const functionName = site.getFunctionName();
  const methodName = functionName === null ? site.getMethodName() : null;
  const typeName = site.getTypeName();
  const kind = (site.isAsync() ? 1 : 0) | (site.isConstructor() ? 2 : 0);
  const callerPosition = sameFileCaller ? caller.position : -1;
  let byPosition = frames.get(file);
  const variants = byPosition?.get(position);
  if (variants !== undefined) {
    for (const variant of variants) {
      if (variant.functionName === functionName && variant.methodName === methodName && variant.typeName === typeName && variant.kind === kind && variant.callerPosition === callerPosition) return variant.text;
    }
  }
  const map = file === undefined ? undefined : findSourceMap(file);
  const text = map === undefined ? String(site) : mapFrame(map, site, sameFileCaller ? caller.site : undefined);
  // A position too large to pack is not kept: it could not be told apart from another.
  if (position === UNPACKABLE) return text;
  if (cachedFrames >= MAX_FRAMES) {
    frames.clear();
    cachedFrames = 0;
    byPosition = undefined;
  }
  if (byPosition === undefined) frames.set(file, (byPosition = new Map()));
  const variant: FrameVariant = { functionName, methodName, typeName, kind, callerPosition, text };
  const known = byPosition.get(position);
  if (known === undefined) byPosition.set(position, [variant]);
  else known.push(variant);
  cachedFrames++;
  return text;
}

/** A call site's line and column as one number; -2 when they are unknown (a builtin), UNPACKABLE when too large. */
function positionOf(site: NodeJS.CallSite): number {
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (line === null || column === null) return -2;
  if (line >= MAX_LINE || column >= LINE_FACTOR) return UNPACKABLE;
  return line * LINE_FACTOR + column;
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

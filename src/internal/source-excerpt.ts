import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SourceLine {
  number: number;
  text: string;
  /** The line the frame points at. */
  selected: boolean;
}

export interface SourceExcerptOptions {
  /** Lines shown before and after the selected one (the reference shows 5). */
  around?: number;
  /** Directories whose files may be read; defaults to the working directory and keel's own sources. */
  roots?: readonly string[];
}

const KEEL_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const CACHE_SIZE = 64;
// Characters of source kept in all: 64 files of 2 MB were 230 MB of heap, and the source view reads any
// project file a client names (node_modules too). A debug page's dozen files take a fraction of this.
const CACHE_CHARS = 16 * 1024 * 1024;
// What a stack frame of JavaScript can name; checked on the real path too, so a link cannot dress up a `.env`.
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

// Lines of the files read so far, per set of roots (in practice one: the default), by the file's name as
// the stack frame gives it, the same string every time: a hit builds no key, and the debug page asks for a
// dozen excerpts per error. Each entry knows the file's version it was read from (see fileVersion).
interface CachedFile {
  lines: string[] | null;
  /** The characters of its lines, counted against CACHE_CHARS. */
  chars: number;
  version: string;
  checkedAt: number;
}
const cache = new Map<string, Map<string, CachedFile>>();
// How long an excerpt's file is trusted unchecked: the debug page of a server under load asks for the same
// files many times a second, and a stat each time would cost more than the excerpt. The source view checks
// every time (see readSourceFile).
const EXCERPT_RECHECK_MS = 1000;
let cachedFiles = 0;
let cachedChars = 0;
let defaults: { cwd: string; roots: readonly string[]; key: string } | undefined;

/**
 * The lines around `line` of a source file, for the debug error page. Only JavaScript and TypeScript
 * sources that are regular files below one of the roots are read (a stack frame's path comes from code, but
 * a crafted error could name any file: `.env`, a log), never node: internals, and never more than a few MB.
 * Returns an empty list rather than throwing.
 */
export function readSourceExcerpt(file: string, line: number, { around = 5, roots }: SourceExcerptOptions = {}): readonly SourceLine[] {
  if (!Number.isInteger(line) || line < 1) return [];
  const lines = readLines(file, roots, EXCERPT_RECHECK_MS);
  if (lines === null || line > lines.length) return [];
  // The same excerpt, frozen, for as long as the file's lines are the ones read: every error page asks
  // for the same dozen, and building them anew was a few kB of garbage per page.
  let byLine = excerpts.get(lines);
  if (byLine === undefined) excerpts.set(lines, (byLine = new Map()));
  // Line and width as one number, exact for any width below 2¹⁶ and any line below 2³⁷.
  const key = Number.isInteger(around) && around >= 0 && around < 0x10000 ? line * 0x10000 + around : -1;
  const known = byLine.get(key);
  if (known !== undefined) return known;
  const first = Math.max(1, line - around);
  const last = Math.min(lines.length, line + around);
  const excerpt: SourceLine[] = [];
  for (let number = first; number <= last; number++) {
    excerpt.push(Object.freeze({ number, text: lines[number - 1]!, selected: number === line }));
  }
  if (key !== -1) byLine.set(key, Object.freeze(excerpt));
  return excerpt;
}

// Excerpts by the lines they were cut from: they go with the file's entry of the cache.
const excerpts = new WeakMap<readonly string[], Map<number, readonly SourceLine[]>>();

/**
 * Every line of a source file, under the same rules as readSourceExcerpt (JavaScript or TypeScript, a
 * regular file below one of the roots, a few MB at most); undefined when it may not be read. The file as it
 * is now: a developer opens the source view of a file being edited, or one created since the last look.
 */
export function readSourceFile(file: string, { roots }: Pick<SourceExcerptOptions, 'roots'> = {}): readonly string[] | undefined {
  return readLines(file, roots, 0) ?? undefined;
}

/**
 * A source file's lines, or null when it may not be read (outside the roots, not a regular file, too
 * large, missing). A cached entry older than `recheckMs` is checked against the file's version, and read
 * again if the file changed (or appeared). Up to CACHE_SIZE files of CACHE_CHARS characters in all are kept;
 * past that the cache starts over (a debug page names a few files).
 */
function readLines(file: string, roots: readonly string[] | undefined, recheckMs: number): string[] | null {
  if (!isAbsolute(file) || !SOURCE_FILE.test(file)) return null;
  const { roots: allowed, key } = roots === undefined ? defaultRoots() : { roots, key: roots.join('\0') };
  let files = cache.get(key);
  const hit = files?.get(file);
  const now = performance.now();
  if (hit !== undefined && now - hit.checkedAt < recheckMs) return hit.lines;
  const version = fileVersion(file);
  if (hit !== undefined && hit.version === version) {
    hit.checkedAt = now;
    return hit.lines;
  }
  const lines = load(file, allowed);
  const chars = lines === null ? 0 : lines.reduce((sum, text) => sum + text.length, 0);
  if (hit !== undefined) cachedChars -= hit.chars;
  if ((hit === undefined && cachedFiles >= CACHE_SIZE) || cachedChars + chars > CACHE_CHARS) {
    clearSourceExcerptCache();
    files = undefined;
  }
  if (files === undefined) cache.set(key, (files = new Map()));
  if (files.get(file) === undefined) cachedFiles++;
  cachedChars += chars;
  files.set(file, { lines, chars, version, checkedAt: now });
  return lines;
}

// What tells a file's content changed without reading it: its inode, size and modification time (of the
// file a link points to); `missing` when there is none.
function fileVersion(file: string): string {
  try {
    const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
    return stat === undefined ? 'missing' : `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'unreadable';
  }
}

// The working directory and keel's own sources, with their key, rebuilt only when the working directory changed.
function defaultRoots(): { roots: readonly string[]; key: string } {
  const cwd = process.cwd();
  if (defaults?.cwd !== cwd) defaults = { cwd, roots: [cwd, KEEL_ROOT], key: `${cwd}\0${KEEL_ROOT}` };
  return defaults;
}

function load(file: string, roots: readonly string[]): string[] | null {
  try {
    const real = realpathSync(file);
    if (!SOURCE_FILE.test(real) || !roots.some((root) => isInside(real, root))) return null;
    const stat = statSync(real);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return null;
    return readFileSync(real, 'utf8').split(/\r?\n/);
  } catch {
    return null;
  }
}

function isInside(file: string, root: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  const rel = relative(realRoot, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Forgets cached files (tests rewrite fixtures between cases). */
export function clearSourceExcerptCache(): void {
  cache.clear();
  cachedFiles = 0;
  cachedChars = 0;
}

/** The files cached and the characters of their lines (tests check the bounds). */
export function sourceExcerptCacheSize(): { files: number; chars: number } {
  return { files: cachedFiles, chars: cachedChars };
}

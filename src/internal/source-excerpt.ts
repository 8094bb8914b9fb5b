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

// Least recently used first: a Map iterates in insertion order, so re-inserting on a hit keeps it sorted.
const cache = new Map<string, string[] | null>();

/**
 * The lines around `line` of a source file, for the debug error page. Only regular files below one of the
 * roots are read (a stack frame's path comes from code, but a crafted error could name any file), never
 * node: internals, and never more than a few MB. Returns an empty list rather than throwing.
 */
export function readSourceExcerpt(file: string, line: number, { around = 5, roots = [process.cwd(), KEEL_ROOT] }: SourceExcerptOptions = {}): SourceLine[] {
  if (!Number.isInteger(line) || line < 1) return [];
  const lines = readLines(file, roots);
  if (lines === null || line > lines.length) return [];
  const first = Math.max(1, line - around);
  const last = Math.min(lines.length, line + around);
  const excerpt: SourceLine[] = [];
  for (let number = first; number <= last; number++) {
    excerpt.push({ number, text: lines[number - 1]!, selected: number === line });
  }
  return excerpt;
}

function readLines(file: string, roots: readonly string[]): string[] | null {
  if (!isAbsolute(file)) return null;
  const key = `${roots.join('\0')}\0${file}`;
  if (cache.has(key)) {
    const hit = cache.get(key)!;
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const lines = load(file, roots);
  cache.set(key, lines);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return lines;
}

function load(file: string, roots: readonly string[]): string[] | null {
  try {
    const real = realpathSync(file);
    if (!roots.some((root) => isInside(real, root))) return null;
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
}

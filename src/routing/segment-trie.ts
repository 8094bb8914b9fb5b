import { PLACEHOLDER_NAME } from './route-compiler.js';
import type { Route } from './route.js';
import { unicodeClasses } from './unicode-classes.js';

/** A path segment of a route: its literal text, or a placeholder with the requirement it must meet (none: any non-empty text). */
type Segment = { literal: string } | { requirement: RegExp | undefined };

/** Routes a path reaches, in definition order, with what their path regex would have captured (index 0: the whole path). */
export interface TrieHit {
  routes: readonly Route[];
  /** Each route's place in the table. */
  positions: readonly number[];
  groups: readonly string[];
}

interface TrieNode {
  /** Literal children by the low 7 bits of their first character (SLASH for the empty text), chained. */
  literals: (LiteralEdge | undefined)[] | undefined;
  placeholder: TrieNode | undefined;
  tested: { requirement: RegExp; node: TrieNode }[] | undefined;
  /** Routes whose last segment leads here, in definition order, and their places in the table. */
  routes: Route[];
  positions: number[];
}

interface LiteralEdge {
  text: string;
  /** The text's character codes: reading them from an array is cheaper than from a string. */
  codes: number[];
  node: TrieNode;
  next: LiteralEdge | undefined;
}

const NO_HITS: readonly TrieHit[] = Object.freeze([]);
const SLASH = 47;
const WHOLE_SEGMENT_PLACEHOLDER = new RegExp(`^\\{!?(${PLACEHOLDER_NAME})\\}$`);
const DEFAULT_REQUIREMENT = '[^/]+';
// Requirements made of these can never match a `/` (nor anything Unicode-sensitive).
const SLASH_FREE_REQUIREMENT = /^(?:\\[dw]|[A-Za-z0-9_+()?:])+$/;

/**
 * The routes whose path is a fixed list of segments, each literal or one whole placeholder
 * (`/repos/{owner}/{repo}/issues`), walked segment by segment instead of by regex. Such a route's regex,
 * `^/repos/([^/]+)/([^/]+)/issues/?$`, matches exactly the paths with as many segments (one trailing `/`
 * left out), each equal to the literal or accepted by the placeholder: since no segment can hold a `/`, the
 * path's slashes are the route's. The walk follows a literal and a placeholder edge alike, so it finds every
 * route whose regex matches, and hands them back in definition order.
 *
 * Routes of any other shape are left to the regex groups; `match()` answers undefined for a path they
 * could match (one with their first literal segment, or any path when their first segment is a
 * placeholder), so that the caller tests all candidates the same way.
 */
export class SegmentTrie {
  readonly #root = createNode();
  /** First segments of the paths that a route left out could match; undefined: any path. */
  #leftOut: Set<string> | undefined = new Set();

  /** Adds a route at its place in the table (routes are added in definition order); false when its shape does not fit. */
  add(route: Route, position: number): boolean {
    const segments = segmentsOf(route);
    if (segments === undefined) return false;
    let node = this.#root;
    for (const segment of segments) node = 'literal' in segment ? literalChild(node, segment.literal) : placeholderChild(node, segment.requirement);
    node.routes.push(route);
    node.positions.push(position);
    return true;
  }

  /** Marks the paths a route left out of the trie could match: those with its first literal segment, or all. */
  leaveOut(firstSegment: string | undefined): void {
    if (firstSegment === undefined) this.#leftOut = undefined;
    else this.#leftOut?.add(firstSegment);
  }

  /** The routes whose path regex matches a decoded path, in definition order; undefined when the trie cannot tell. */
  match(path: string): readonly TrieHit[] | undefined {
    const leftOut = this.#leftOut;
    if (leftOut === undefined) return undefined;
    if (path.charCodeAt(0) !== SLASH) return NO_HITS;
    if (leftOut.size > 0) {
      const slash = path.indexOf('/', 1);
      if (leftOut.has(slash === -1 ? path.slice(1) : path.slice(1, slash))) return undefined;
    }
    const hits = walk(this.#root, path, 1, [path], undefined);
    return hits === undefined ? NO_HITS : hits.length > 1 ? inDefinitionOrder(hits) : hits;
  }
}

function createNode(): TrieNode {
  return { literals: undefined, placeholder: undefined, tested: undefined, routes: [], positions: [] };
}

function literalChild(node: TrieNode, text: string): TrieNode {
  node.literals ??= new Array<LiteralEdge | undefined>(128).fill(undefined);
  const bucket = (text === '' ? SLASH : text.charCodeAt(0)) & 127;
  const first = node.literals[bucket];
  for (let edge = first; edge !== undefined; edge = edge.next) if (edge.text === text) return edge.node;
  const child = createNode();
  node.literals[bucket] = { text, codes: Array.from({ length: text.length }, (_, i) => text.charCodeAt(i)), node: child, next: first };
  return child;
}

function placeholderChild(node: TrieNode, requirement: RegExp | undefined): TrieNode {
  if (requirement === undefined) return (node.placeholder ??= createNode());
  node.tested ??= [];
  let edge = node.tested.find((candidate) => candidate.requirement.source === requirement.source);
  if (edge === undefined) node.tested.push((edge = { requirement, node: createNode() }));
  return edge.node;
}

/**
 * Follows every edge the segment starting at `start` allows. `groups` holds the path and the placeholder
 * values taken so far: a hit copies it. Returns `hits` with the hits found added, created by the first one
 * (most paths reach one node: its hit is then alone in an array of one).
 */
function walk(node: TrieNode, path: string, start: number, groups: string[], hits: TrieHit[] | undefined): TrieHit[] | undefined {
  const length = path.length;
  // Literal children are compared in place, character by character: walking a path creates no string but
  // the placeholder values.
  if (node.literals !== undefined) {
    for (let edge = node.literals[(start < length ? path.charCodeAt(start) : SLASH) & 127]; edge !== undefined; edge = edge.next) {
      const end = start + edge.codes.length;
      if (isSegmentAt(edge.codes, path, start, end)) {
        hits = end < length - 1 ? walk(edge.node, path, end + 1, groups, hits) : addHit(edge.node, groups, hits);
        break;
      }
    }
  }
  if (node.placeholder === undefined && node.tested === undefined) return hits;
  let end = path.indexOf('/', start);
  if (end === -1) end = length;
  if (end === start) return hits;
  const value = path.slice(start, end);
  groups.push(value);
  // The segment is the last one at the end of the path or before its one optional trailing `/`.
  if (end < length - 1) {
    if (node.placeholder !== undefined) hits = walk(node.placeholder, path, end + 1, groups, hits);
    if (node.tested !== undefined) for (const edge of node.tested) if (edge.requirement.test(value)) hits = walk(edge.node, path, end + 1, groups, hits);
  } else {
    if (node.placeholder !== undefined) hits = addHit(node.placeholder, groups, hits);
    if (node.tested !== undefined) for (const edge of node.tested) if (edge.requirement.test(value)) hits = addHit(edge.node, groups, hits);
  }
  groups.pop();
  return hits;
}

/** Whether the path's segment from `start` is `text` (then ending at `end`, at a `/` or the end of the path). */
function isSegmentAt(codes: readonly number[], path: string, start: number, end: number): boolean {
  if (end > path.length || (end < path.length && path.charCodeAt(end) !== SLASH)) return false;
  for (let i = 0; i < codes.length; i++) if (path.charCodeAt(start + i) !== codes[i]) return false;
  return true;
}

function addHit(node: TrieNode, groups: string[], hits: TrieHit[] | undefined): TrieHit[] | undefined {
  if (node.routes.length === 0) return hits;
  const hit = { routes: node.routes, positions: node.positions, groups: groups.slice() };
  // An array of one rather than an empty one grown by push(), which reserves room for 16.
  if (hits === undefined) return [hit];
  hits.push(hit);
  return hits;
}

/**
 * Several nodes reached (a literal and a placeholder edge both led somewhere): their routes merged into
 * definition order, one hit each (each node's routes are in that order already). Kept as they are when
 * each node's routes all come before the next one's, as when a literal route is declared before the
 * placeholder route that could also match, the order that makes sense.
 */
function inDefinitionOrder(hits: TrieHit[]): TrieHit[] {
  let h = 1;
  while (h < hits.length && ((hits[h - 1] as TrieHit).positions.at(-1) as number) < ((hits[h] as TrieHit).positions[0] as number)) h++;
  if (h === hits.length) return hits;
  const ordered: TrieHit[] = [];
  // A plain loop with the next route of each hit in an array: this runs on lookups.
  const next = new Array<number>(hits.length).fill(0);
  for (;;) {
    let first = -1;
    let firstPosition = Infinity;
    for (h = 0; h < hits.length; h++) {
      const position = (hits[h] as TrieHit).positions[next[h] as number];
      if (position !== undefined && position < firstPosition) {
        first = h;
        firstPosition = position;
      }
    }
    if (first === -1) return ordered;
    const hit = hits[first] as TrieHit;
    const i = (next[first] as number)++;
    ordered.push({ routes: [hit.routes[i] as Route], positions: [firstPosition], groups: hit.groups });
  }
}

/** The route's segments, or undefined when its regex is not a plain sequence of them (see SegmentTrie). */
function segmentsOf(route: Route): Segment[] | undefined {
  const pattern = route.pathPattern;
  if (route.path === '/' || pattern.firstOptional !== Infinity) return undefined;
  const path = route.hasTrailingSlash ? route.path.slice(0, -1) : route.path;
  // `/a//` keeps a literal `/` before its optional trailing one.
  if (path.endsWith('/')) return undefined;
  const requirements = new Map<string, string>();
  for (const token of pattern.tokens) if (token.kind === 'variable') requirements.set(token.name, token.regex);
  const segments: Segment[] = [];
  for (const text of path.slice(1).split('/')) {
    const placeholder = WHOLE_SEGMENT_PLACEHOLDER.exec(text);
    if (placeholder === null) {
      if (text.includes('{')) return undefined;
      segments.push({ literal: text });
      continue;
    }
    const regex = requirements.get(placeholder[1] as string) as string;
    if (regex === DEFAULT_REQUIREMENT) {
      segments.push({ requirement: undefined });
      continue;
    }
    if (!staysInSegment(regex)) return undefined;
    segments.push({ requirement: new RegExp(`^(?:${unicodeClasses(regex)})$`, 'su') });
  }
  return segments;
}

/**
 * Whether a placeholder regex only ever matches non-empty text without a `/`: the default one (`[^/]+`,
 * `[^/.]+`), or a requirement made of slash-free tokens that cannot match nothing.
 */
export function staysInSegment(regex: string): boolean {
  if (regex.startsWith('[^/') && regex.endsWith(']+') && !regex.slice(3, -2).includes(']')) return true;
  return SLASH_FREE_REQUIREMENT.test(regex) && !new RegExp(`^(?:${regex})$`, 'su').test('');
}

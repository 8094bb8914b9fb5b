import { RegexGroup } from './regex-group.js';
import type { Route } from './route.js';

// Below this many routes one combined regex is already cheap; splitting would only add a lookup.
const MIN_ROUTES = 8;

/**
 * The routes of one regex group (same first segment, same segment count) split once more by the literal
 * text of one further path segment, the one that tells most of them apart (`/repos/{owner}/{repo}/issues`
 * vs `…/pulls`). A path then tests only the routes with its text there, plus those with a placeholder
 * there or whose segments are not fixed, in definition order: a route left out could not have matched,
 * since a route of fixed segments matches a path segment by segment, and a literal segment only itself.
 */
export class SegmentSplit {
  readonly position: number;
  readonly #byLiteral: Map<string, RegexGroup>;
  readonly #others: RegexGroup;

  private constructor(position: number, byLiteral: Map<string, RegexGroup>, others: RegexGroup) {
    this.position = position;
    this.#byLiteral = byLiteral;
    this.#others = others;
  }

  /**
   * The split of `routes` (in definition order) by their literal segments (`literalSegments(route)[i]`,
   * undefined where a route has a placeholder or no fixed segments), or undefined when no segment
   * position is worth it.
   */
  static create(routes: readonly Route[], literalSegments: (route: Route) => readonly (string | undefined)[] | undefined): SegmentSplit | undefined {
    if (routes.length < MIN_ROUTES) return undefined;
    const literals = routes.map((route) => literalSegments(route));
    let best: { position: number; distinct: number; fixed: number } | undefined;
    const longest = Math.max(...literals.map((segments) => segments?.length ?? 0));
    // Position 1 is the first segment, which the groups are already keyed by.
    for (let position = 2; position < longest; position++) {
      const distinct = new Set<string>();
      let fixed = 0;
      for (const segments of literals) {
        const text = segments?.[position];
        if (text === undefined) continue;
        distinct.add(text);
        fixed++;
      }
      if (distinct.size >= 2 && (best === undefined || fixed > best.fixed || (fixed === best.fixed && distinct.size > best.distinct))) {
        best = { position, distinct: distinct.size, fixed };
      }
    }
    if (best === undefined) return undefined;
    const at = best.position;
    const others = routes.filter((_, i) => literals[i]?.[at] === undefined);
    const byLiteral = new Map<string, RegexGroup>();
    for (const text of new Set(literals.map((segments) => segments?.[at]).filter((text) => text !== undefined))) {
      byLiteral.set(text, new RegexGroup(routes.filter((_, i) => literals[i]?.[at] === undefined || literals[i]?.[at] === text)));
    }
    return new SegmentSplit(at, byLiteral, new RegexGroup(others));
  }

  /** The group to test for a decoded path (one trailing `/` ignored, as the route regexes allow it). */
  groupFor(path: string): RegexGroup {
    const text = segmentAt(path, this.position);
    return (text === undefined ? undefined : this.#byLiteral.get(text)) ?? this.#others;
  }
}

/** The text between the position-th `/` and the next one (or the end, one trailing `/` left out). */
export function segmentAt(path: string, position: number): string | undefined {
  let start = -1;
  for (let seen = 0; seen < position; seen++) {
    start = path.indexOf('/', start + 1);
    if (start === -1) return undefined;
  }
  const end = path.indexOf('/', start + 1);
  if (end === -1) return path.slice(start + 1);
  // `/a/b/` is `/a/b` for the route regexes: the segment ends at that last `/`.
  return path.slice(start + 1, end);
}

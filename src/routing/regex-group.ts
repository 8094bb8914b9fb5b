import { toNonCapturing } from './requirement-safety.js';
import type { Route } from './route.js';

// Up to this many routes, testing each regex in turn beats one combined exec, whose result array holds an
// entry per route.
const COMBINE_FROM = 8;
// Beyond this many, V8 takes seconds to compile the alternation, when it can at all ("Regular expression
// too large" at 20 000): each regex is tested in turn (~0.1 µs each) rather than one request stalling.
const COMBINE_UP_TO = 1_000;

/** A route among a group's, found by its path regex, with what the regex captured (index 0: the whole path). */
export interface RegexHit {
  route: Route;
  /** Position in the group, to resume after it. */
  position: number;
  groups: ArrayLike<string | undefined>;
}

/**
 * Routes tested by regex, in definition order, with one regex for all of them: the alternation
 * `^(?:()A|()B|…)$` of their path regexes (placeholders not captured), so that the first route whose path
 * regex matches is found by a single exec instead of one per route. An alternation tries its branches in
 * order, each as its own regex would, so the route found is the one a route-by-route scan finds. The empty
 * group opening each branch says which branch matched; the route's own regex then captures its placeholders.
 */
export class RegexGroup {
  readonly routes: readonly Route[];
  #combined: RegExp | null | undefined;

  constructor(routes: readonly Route[]) {
    this.routes = routes;
  }

  /** The first route from `from` on whose path regex matches `path`, or undefined. */
  next(path: string, from: number): RegexHit | undefined {
    const routes = this.routes;
    if (from === 0 && routes.length > COMBINE_FROM && routes.length <= COMBINE_UP_TO) {
      const combined = this.#combined === undefined ? (this.#combined = this.#compile()) : this.#combined;
      if (combined !== null) return this.#first(combined, path);
    }
    for (let i = from; i < routes.length; i++) {
      const route = routes[i] as Route;
      const groups = route.pathRegex.exec(path);
      if (groups !== null) return { route, position: i, groups };
    }
    return undefined;
  }

  #first(combined: RegExp, path: string): RegexHit | undefined {
    const match = combined.exec(path);
    if (match === null) return undefined;
    for (let i = 1; i < match.length; i++) {
      if (match[i] === undefined) continue;
      const route = this.routes[i - 1] as Route;
      const groups = route.pathRegex.exec(path);
      // Cannot fail (same regex, same input); the scan from here is the answer if it ever did.
      if (groups === null) return this.next(path, i);
      return { route, position: i - 1, groups };
    }
    return undefined;
  }

  /** Null when the routes cannot share one regex (then each is tested on its own, as before). */
  #compile(): RegExp | null {
    const branches: Branch[] = [];
    for (const route of this.routes) {
      const { source, flags } = route.pathRegex;
      if (flags !== 'su' || !source.startsWith('^') || !source.endsWith('$')) return null;
      const branch = toNonCapturing(source.slice(1, -1));
      // Requirements refuse back-references: a branch captures nothing once its groups are made non-capturing.
      if (capturingGroups(new RegExp(branch, 'su')) !== 0) return null;
      branches.push(splitBranch(branch));
    }
    try {
      const combined = new RegExp(`^(?:${alternation(branches, 0)})$`, 'su');
      // V8 compiles a regex at its first exec: a regex it cannot compile fails here, not on a request.
      combined.exec('');
      return combined;
    } catch {
      return null;
    }
  }
}

/** A branch as its leading segments (each ending with a required `/`) and the rest of its regex. */
interface Branch {
  segments: string[];
  rest: string;
}

const SEGMENT = /^(?:\(\?:\[\^\\?\/\]\+\)|[\w~-]+)\\\/(?![?*+{])/;

/**
 * `\/repos\/(?:[^/]+)\/x` → segments `\/`, `repos\/`, `(?:[^/]+)\/` and rest `x`. A segment is a literal
 * word or a default placeholder, followed by a required `/`: it can match a path in one way only.
 */
function splitBranch(source: string): Branch {
  const segments: string[] = [];
  let rest = source;
  if (rest.startsWith('\\/') && !/^[?*+{]/.test(rest.slice(2))) {
    segments.push('\\/');
    rest = rest.slice(2);
    for (let match = SEGMENT.exec(rest); match !== null; match = SEGMENT.exec(rest)) {
      segments.push(match[0]);
      rest = rest.slice(match[0].length);
    }
  }
  return { segments, rest };
}

/**
 * The branches as one alternation, in order, consecutive branches sharing a leading segment written once:
 * `S(?:()a|()b)` tries the same routes in the same order as `()Sa|()Sb`, since S matches in one way only.
 * Each branch keeps one empty marker group, in branch order.
 */
function alternation(branches: readonly Branch[], depth: number): string {
  const out: string[] = [];
  for (let i = 0; i < branches.length; ) {
    const branch = branches[i] as Branch;
    const segment = branch.segments[depth];
    let end = i + 1;
    if (segment !== undefined) while (end < branches.length && branches[end]?.segments[depth] === segment) end++;
    if (end - i > 1) out.push(`${segment}(?:${alternation(branches.slice(i, end), depth + 1)})`);
    else out.push(`()${branch.segments.slice(depth).join('')}${branch.rest}`);
    i = end;
  }
  return out.join('|');
}

function capturingGroups(regex: RegExp): number {
  // An alternative that matches the empty string reports every group, each undefined.
  return (new RegExp(`${regex.source}|`, regex.flags).exec('') as RegExpExecArray).length - 1;
}

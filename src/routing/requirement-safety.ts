/**
 * Checks and normalises a placeholder requirement before it becomes part of a route's regular expression.
 * Routes are compiled at start-up, so an unsafe or broken requirement fails there, never on a request.
 */
import { mayOverlap } from './character-overlap.js';

const REPEATING = /^(?:[*+]|\{\d+,\d*\})/;
const UNBOUNDED = /^(?:[*+]|\{\d+,\})/;

interface GroupShape {
  /** Holds an unbounded quantifier (`+`, `*`, `{n,}`). */
  unbounded: boolean;
  /** Holds alternatives. */
  alternatives: boolean;
  /** Its last atom is repeated (`a{1,5}`): nothing marks where one repetition of the group ends. */
  endsRepeated: boolean;
  /** Where its body starts in the requirement (after `(` and `?:`). */
  start: number;
  /** Each repetition starts with a separator nothing else in it matches (see isDelimited): repeating it is safe. */
  delimited: boolean;
  /** Where its `(` is. */
  openAt: number;
  /** Where its current atom starts. */
  atomStart: number;
  /** The atom just repeated without bound (`\d` of `\d+`), while nothing else has followed it. */
  unboundedAtom: string | undefined;
  /** Whether the current atom can match nothing (`-?`, `\d*`, `(?:st|nd){0,1}`). */
  atomOptional: boolean;
  /**
   * The unbounded atoms that can end right before the current one: the atom before it, and those before
   * that across atoms that can match nothing. The current one must overlap none of them if it repeats
   * without bound too.
   */
  previousUnbounded: readonly string[];
}

/**
 * Why a requirement may not be used, or undefined when it is fine. The test is deliberately simple, in the
 * spirit of find-my-way's `isRegexSafe` (star height): a group that can match the same text in more than
 * one way may not itself be repeated, because such patterns backtrack exponentially on a near-miss: a
 * group holding an unbounded quantifier (`(a+)+`, `(\d*){2,}`), alternatives (`(?:\w|\d)+`, `(a|a)+`), or
 * ending in a repeated atom (`(?:a{1,5})+`); a 30-character path kept the event loop for seconds. A
 * character class says the same safely (`[\w-]+`), and a group ending in a literal is fine
 * (`(\d{1,3}\.)+`). Two unbounded repetitions in a row that can match the same characters (`\d+\d+`), or with
 * only atoms that can match nothing between them (`\d+-?\d+`, `\w+\.?\w*`),
 * are refused as well: polynomial rather than exponential, but a few kilobytes of path took seconds.
 * Back-references are refused too: they would break the numbering of captured placeholders.
 * @example findRequirementProblem('(a+)+') // 'nested quantifiers …'
 */
export function findRequirementProblem(requirement: string): string | undefined {
  const open = (start = 0, openAt = -1): GroupShape => ({ unbounded: false, alternatives: false, endsRepeated: false, start, delimited: false, openAt, atomStart: 0, unboundedAtom: undefined, atomOptional: false, previousUnbounded: [] });
  // An atom starts at `at`: the one before it is a previous unbounded one if it was repeated without bound,
  // and when it can match nothing, those before it still are, groups aside (mayOverlap cannot tell what a
  // group ends with, and takes it to overlap anything: `[a-z]+(?:-[a-z]+)*\.?\d*` is fine).
  const startAtom = (group: GroupShape, at: number): void => {
    const carried = group.atomOptional ? group.previousUnbounded.filter((atom) => !atom.startsWith('(')) : [];
    group.atomStart = at;
    group.previousUnbounded = group.unboundedAtom === undefined ? carried : [...carried, group.unboundedAtom];
    group.unboundedAtom = undefined;
    group.atomOptional = false;
  };
  const stack: GroupShape[] = [open()];
  let inClass = false;
  let lastGroup: GroupShape | undefined;
  let quantifier: string | undefined;
  // Whether an atom has just ended, so that a `?` makes it optional (rather than lazy, `+?`, or a group's `(?:`).
  let atomEnded = false;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i];
    const current = stack[stack.length - 1]!;
    if (ch === '\\') {
      const next = requirement[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && requirement[i + 2] === '<')) return 'back-references are not supported';
      if (!inClass) startAtom(current, i);
      // `\p{L}`, `\x{e9}`: the braces belong to the escape.
      const braces = /^[pPx]\{[^}]*\}/.exec(requirement.slice(i + 1));
      i += braces === null ? 1 : braces[0].length;
      current.endsRepeated = false;
      lastGroup = undefined;
      atomEnded = !inClass;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      atomEnded = !inClass;
      continue;
    }
    if (ch === '(') {
      startAtom(current, i);
      stack.push(open(requirement.startsWith('?:', i + 1) ? i + 3 : i + 1, i));
    } else if (ch === ')') {
      if (stack.length === 1) return 'unbalanced parenthesis';
      lastGroup = stack.pop()!;
      lastGroup.delimited = !lastGroup.alternatives && isDelimited(requirement.slice(lastGroup.start, i));
      const parent = stack[stack.length - 1]!;
      parent.unbounded ||= lastGroup.unbounded;
      // Conservative: alternatives anywhere inside make the enclosing groups suspect too.
      parent.alternatives ||= lastGroup.alternatives;
      parent.endsRepeated = false;
      atomEnded = true;
      continue;
    } else if (ch === '|') {
      current.alternatives = true;
      current.unboundedAtom = undefined;
      current.atomOptional = false;
    } else if ((quantifier = REPEATING.exec(requirement.slice(i))?.[0]) !== undefined) {
      if (lastGroup?.delimited === true) {
        // Safe to repeat: the group's separator starts each repetition, so a text splits one way only.
      } else if (lastGroup?.unbounded === true) return 'nested quantifiers (a repeated group that itself repeats) risk catastrophic backtracking';
      else if (lastGroup !== undefined && (lastGroup.alternatives || lastGroup.endsRepeated)) {
        return 'a repeated group holding alternatives, or ending in a repeated atom, risks catastrophic backtracking: use a character class';
      }
      if (UNBOUNDED.test(quantifier)) {
        current.unbounded = true;
        const atom = requirement.slice(lastGroup?.openAt ?? current.atomStart, i);
        if (current.previousUnbounded.some((previous) => mayOverlap(previous, atom))) {
          return 'two unbounded repetitions in a row, or with only optional atoms between them, that can match the same characters (`\\d+\\d+`, `\\d+-?\\d+`) risk polynomial backtracking: merge them (`\\d{2,}`) or bound one';
        }
        current.unboundedAtom = atom;
      }
      if (quantifier === '*' || quantifier.startsWith('{0,')) current.atomOptional = true;
      current.endsRepeated = true;
      // The quantifier's own characters (`{1,5}`) are not atoms.
      i += quantifier.length - 1;
    } else {
      // `[` opens a class, anything else is a literal: an atom either way.
      if (ch === '[') inClass = true;
      if (ch !== '?') {
        current.endsRepeated = false;
        startAtom(current, i);
      } else if (atomEnded) {
        current.atomOptional = true;
      }
    }
    atomEnded = ch !== '(' && ch !== '|' && ch !== '?' && quantifier === undefined && !inClass;
    lastGroup = undefined;
  }
  return undefined;
}

/** Whether a requirement holds an unbounded quantifier (`+`, `*`, `{n,}`) outside its character classes. */
export function isUnbounded(requirement: string): boolean {
  let inClass = false;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (UNBOUNDED.test(requirement.slice(i, i + 12))) return true;
  }
  return false;
}

/**
 * Whether a group body starts with a separator (a punctuation character, `-` `.` `/` `_`…, as written or
 * escaped) that nothing after it can match: then every repetition of the group begins at one of the
 * separators and a text splits into repetitions one way only, as in Symfony's `Requirement::ASCII_SLUG`,
 * `[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*`. Conservative: after the separator, only letters, digits, `\d \w \s`,
 * escaped punctuation other than it, quantifiers, and classes of those with letter or digit ranges.
 */
function isDelimited(body: string): boolean {
  const first = /^(?:\\([^A-Za-z0-9])|([^A-Za-z0-9\s.[\](){}|?*+^$\\]))/.exec(body);
  if (first === null) return false;
  const separator = first[1] ?? first[2]!;
  const rest = body.slice(first[0].length);
  // An optional separator (`-?`, `-*`, `-{0,1}`) marks nothing: `(?:-?\d+)+` splits a run of digits every
  // way, as `(\d+)+` does.
  if (OPTIONAL.test(rest)) return false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === '\\') {
      const next = rest[++i] ?? '';
      // `\w` matches `_`, the one word character a separator can be.
      if (next === separator || (/[A-Za-z]/.test(next) && !/[dws]/.test(next)) || (next === 'w' && separator === '_')) return false;
    } else if (ch === '[') {
      const close = rest.indexOf(']', i + 1);
      if (close === -1 || !isClassWithout(rest.slice(i + 1, close), separator)) return false;
      i = close;
    } else if (ch === separator || ch === '.' || ch === '(' || ch === '|') return false;
  }
  return true;
}

const OPTIONAL = /^(?:[?*]|\{0[,}])/;

// A class body that cannot match the separator: not negated, its ranges between letters or digits only.
function isClassWithout(body: string, separator: string): boolean {
  if (body.startsWith('^') || body.includes('\\') || body.includes('[')) return false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === separator && !(separator === '-' && i > 0 && i < body.length - 1)) return false;
    if (body[i] === '-' && i > 0 && i < body.length - 1 && !/^(?:[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9])$/.test(body.slice(i - 1, i + 2))) return false;
  }
  return true;
}

/**
 * Strips the anchors Symfony allows around a requirement (`^…$`, `\A…\z`): the route's regex anchors the
 * whole path itself.
 */
export function sanitizeRequirement(requirement: string): string {
  let regex = requirement;
  if (regex.startsWith('^')) regex = regex.slice(1);
  else if (regex.startsWith('\\A')) regex = regex.slice(2);
  if (regex.endsWith('$') && !regex.endsWith('\\$')) regex = regex.slice(0, -1);
  else if (regex.endsWith('\\z')) regex = regex.slice(0, -2);
  return regex;
}

/**
 * Turns capturing groups into non-capturing ones (Symfony's transformCapturingGroupsToNonCapturings), so
 * that group n of a route's regex is always placeholder n. Named groups become plain groups for the same reason.
 * @example toNonCapturing('(a|b)-(?<x>c)') // '(?:a|b)-(?:c)'
 */
export function toNonCapturing(requirement: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i];
    if (ch === '\\') {
      out += ch + (requirement[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') inClass = true;
    if (ch !== '(') {
      out += ch;
      continue;
    }
    const named = /^\(\?<([A-Za-z_$][\w$]*)>/.exec(requirement.slice(i));
    if (named !== null) {
      out += '(?:';
      i += named[0].length - 1;
    } else if (requirement[i + 1] === '?' || requirement[i + 1] === '*') {
      out += ch;
    } else {
      out += '(?:';
    }
  }
  return out;
}

/**
 * A requirement without its lookarounds (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`), as Symfony's generator
 * checks values against it: `(?!admin$)[a-z]+` lets it write `/u/admin`, the matcher deciding the rest.
 * @example withoutLookarounds('(?!admin$)[a-z]+') // '[a-z]+'
 */
export function withoutLookarounds(requirement: string): string {
  if (!requirement.includes('(?')) return requirement;
  let out = '';
  let inClass = false;
  let depth = 0;
  // Inside a lookaround, from the depth of its opening parenthesis: nothing is kept until it closes.
  let skipFrom = -1;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i]!;
    let piece = ch;
    if (ch === '\\') {
      piece = requirement.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '(') {
      if (skipFrom === -1 && LOOKAROUND.test(requirement.slice(i, i + 4))) skipFrom = depth;
      depth++;
    } else if (ch === ')') {
      depth--;
      if (depth === skipFrom) {
        skipFrom = -1;
        continue;
      }
    }
    if (skipFrom === -1) out += piece;
  }
  return out;
}

const LOOKAROUND = /^\(\?(?:=|!|<=|<!)/;

import { unicodeClasses } from './unicode-classes.js';

/**
 * Whether parts of a route's regex can match the same characters, which is what makes repetitions in a row
 * backtrack (see findRequirementProblem and the route compiler's check of neighbouring placeholders).
 * Decided on samples, conservatively: what cannot be told is taken to overlap.
 */

// Characters that tell the usual atoms apart: ASCII, spaces, and letters and digits of other scripts.
const SAMPLES = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '\t', '\n', '\u00a0', 'é', 'Ж', '中', '١', '😀'];

/**
 * Whether two repeated atoms may match a character in common, where the first ends and the second starts
 * (then `a+b+` can split a run of it in as many ways as it is long). A group is judged by its leading atom
 * (`(?:-[a-z]+)` by `-`). Atoms are tried on SAMPLES; a group with alternatives or opening with a group, or
 * an atom that does not compile alone, is taken to overlap.
 */
export function mayOverlap(first: string, second: string): boolean {
  const [a, b] = [first, leadingAtom(second)];
  if (a === undefined || b === undefined || a.startsWith('(')) return true;
  const [inA, inB] = [samplesMatched(a), samplesMatched(b)];
  return inA === undefined || inB === undefined || inA.some((sample) => inB.includes(sample));
}

// An atom itself, or the first atom of a group without alternatives; undefined when that cannot be told.
function leadingAtom(atom: string): string | undefined {
  if (!atom.startsWith('(')) return atom;
  const body = atom.replace(/^\((?:\?:|\?<[A-Za-z_$][\w$]*>)?/, '');
  if (body.startsWith('(') || body.startsWith('?') || body.includes('|')) return undefined;
  return /^(?:\\[pPx]\{[^}]*\}|\\.|\[(?:\\.|[^\]\\])*\]|[^()|*+?{])/.exec(body)?.[0];
}

/**
 * Whether two placeholders' requirements may both match some same single character: one sample matched
 * whole by both, or either matching no sample alone (then it cannot be told, and they are taken to).
 */
export function mayShareCharacters(first: string, second: string): boolean {
  const [inFirst, inSecond] = [samplesMatched(first), samplesMatched(second)];
  return inFirst === undefined || inSecond === undefined || inFirst.length === 0 || inSecond.length === 0 || inFirst.some((sample) => inSecond.includes(sample));
}

// The SAMPLES a pattern (PCRE-style, as requirements are written) matches whole; undefined when it does not compile alone.
function samplesMatched(pattern: string): string[] | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${unicodeClasses(pattern)})$`, 'su');
  } catch {
    return undefined;
  }
  return SAMPLES.filter((sample) => regex.test(sample));
}

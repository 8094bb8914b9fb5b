/**
 * Checks and normalises a placeholder requirement before it becomes part of a route's regular expression.
 * Routes are compiled at start-up, so an unsafe or broken requirement fails there, never on a request.
 */

const REPEATING = /^(?:[*+]|\{\d+,\d*\})/;
const UNBOUNDED = /^(?:[*+]|\{\d+,\})/;

/**
 * Why a requirement may not be used, or undefined when it is fine. The test is deliberately simple, in the
 * spirit of find-my-way's `isRegexSafe` (star height): a group that contains an unbounded quantifier may not
 * itself be repeated (`(a+)+`, `(\d*){2,}`, `(?:x|y+)*`), because such patterns backtrack exponentially on
 * a near-miss. Back-references are refused too: they would break the numbering of captured placeholders.
 * @example findRequirementProblem('(a+)+') // 'nested quantifiers …'
 */
export function findRequirementProblem(requirement: string): string | undefined {
  const stack: boolean[] = [false];
  let inClass = false;
  let lastGroupUnbounded = false;
  for (let i = 0; i < requirement.length; i++) {
    const ch = requirement[i];
    if (ch === '\\') {
      const next = requirement[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && requirement[i + 2] === '<')) return 'back-references are not supported';
      i++;
      lastGroupUnbounded = false;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      lastGroupUnbounded = false;
    } else if (ch === '(') {
      stack.push(false);
    } else if (ch === ')') {
      if (stack.length === 1) return 'unbalanced parenthesis';
      lastGroupUnbounded = stack.pop() === true;
      stack[stack.length - 1] ||= lastGroupUnbounded;
      continue;
    } else if (REPEATING.test(requirement.slice(i))) {
      if (lastGroupUnbounded) return 'nested quantifiers (a repeated group that itself repeats) risk catastrophic backtracking';
      if (UNBOUNDED.test(requirement.slice(i))) stack[stack.length - 1] = true;
    }
    lastGroupUnbounded = false;
  }
  return undefined;
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

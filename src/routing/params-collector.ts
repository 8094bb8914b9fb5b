import { setOwn } from '../internal/set-own.js';

/**
 * Copies the values a route's regex captured into its params, skipping the placeholders left out at the
 * end. One left out before a placeholder that matched is the empty string, as PHP's preg_match() reports
 * an unset group followed by a set one: `/{a?x}.{_format?html}` on `/.json` gives `a: ''`, not its default.
 */
export type ParamsCollector = (params: Record<string, string>, groups: ArrayLike<string | undefined>) => void;

const collectors = new Map<string, ParamsCollector>();

/**
 * The collector for placeholders named `variables` (group n + 1 captures `variables[n]`). Where code can be
 * generated, it is a function of its own that stores each name as a constant: a store under a key read
 * from an array sees every route's names and is V8's slowest kind, about a tenth of a parameter lookup.
 * Routes with the same names share one.
 */
export function paramsCollector(variables: readonly string[]): ParamsCollector {
  const key = variables.join('/');
  let collector = collectors.get(key);
  if (collector === undefined) {
    collector = generated(variables) ?? ((params, groups) => collectParams(params, variables, groups));
    collectors.set(key, collector);
  }
  return collector;
}

/**
 * Undefined where code generation from strings is disallowed (`--disallow-code-generation-from-strings`),
 * and for a placeholder named `__proto__`, which a store by name would take for the object's prototype.
 */
function generated(variables: readonly string[]): ParamsCollector | undefined {
  if (variables.includes('__proto__')) return undefined;
  // The names are placeholder names (`\w+`), written as string literals all the same.
  const body = variables.map((name, i) => `v = g[${i + 1}];\nif (v !== undefined) p[${JSON.stringify(name)}] = v;\nelse if (${i + 1} < n) p[${JSON.stringify(name)}] = '';`).join('\n');
  try {
    return new Function('p', 'g', `let v;\nlet n = ${variables.length};\nwhile (n > 0 && g[n] === undefined) n--;\n${body}`) as ParamsCollector;
  } catch {
    return undefined;
  }
}

/** The collector's work for any names, by a loop. */
export function collectParams(params: Record<string, string>, variables: readonly string[], groups: ArrayLike<string | undefined>): void {
  let last = variables.length;
  while (last > 0 && groups[last] === undefined) last--;
  for (let i = 0; i < last; i++) setOwn(params, variables[i] as string, groups[i + 1] ?? '');
}

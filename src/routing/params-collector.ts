/** Copies the values a route's regex captured into its params, skipping the placeholders left out. */
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

/** Undefined where code generation from strings is disallowed (`--disallow-code-generation-from-strings`). */
function generated(variables: readonly string[]): ParamsCollector | undefined {
  // The names are placeholder names (`\w+`), written as string literals all the same.
  const body = variables.map((name, i) => `v = g[${i + 1}];\nif (v !== undefined) p[${JSON.stringify(name)}] = v;`).join('\n');
  try {
    return new Function('p', 'g', `let v;\n${body}`) as ParamsCollector;
  } catch {
    return undefined;
  }
}

/** The collector's work for any names, by a loop. */
export function collectParams(params: Record<string, string>, variables: readonly string[], groups: ArrayLike<string | undefined>): void {
  for (let i = 0; i < variables.length; i++) {
    const value = groups[i + 1];
    if (value !== undefined) params[variables[i] as string] = value;
  }
}

import type { Profile } from './profile.js';

// Text of frozen collector data, by object: see Collector. Weak, so it goes with the data.
const texts = new WeakMap<object, string>();

/**
 * A profile as JSON, the same text JSON.stringify would give, except that frozen data is stringified once
 * and its text reused, at any depth below frozen collector data: the configuration snapshot every record
 * carries, the error a failed request shares with its error sub-request, and inside that error the parsed
 * stack, which is the same list for every error thrown on one code path (see parseStack).
 */
export function stringifyProfile(profile: Profile): string {
  const { collectors, ...fields } = profile;
  const parts: string[] = [];
  for (const name of Object.keys(collectors)) {
    const text = valueText(collectors[name]);
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
  }
  const head = JSON.stringify(fields);
  return `${head.slice(0, -1)},"collectors":{${parts.join(',')}}}`;
}

function valueText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value) as string | undefined;
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = frozenText(value)));
  return text;
}

/** JSON of frozen data, built from its members' texts so that frozen members inside it are reused. */
function frozenText(value: object): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => valueText(item) ?? 'null').join(',')}]`;
  const prototype = Object.getPrototypeOf(value) as unknown;
  // Anything but a plain object (a Date, a class with toJSON) is left to JSON.stringify as a whole.
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(value);
  }
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    const text = valueText((value as Record<string, unknown>)[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  // join() gives one flat string: texts nested in later records are not walked piece by piece (see flatString).
  return `{${members.join(',')}}`;
}

/** A value by its type, for a message that refuses it: `null`, `a number`, `an object of type Map`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  return `an object of type ${(value as object).constructor?.name ?? 'Object'}`;
}

const PLACEHOLDER = /\{([A-Za-z0-9_.]+)\}/g;

/**
 * Fills `{name}` placeholders from values, in one pass (a value that itself contains `{x}` is not filled
 * again). Scalars print as is, null as "null", anything else as JSON — Monolog's PsrLogMessageProcessor rules.
 * @example interpolate('Matched route "{route}".', { route: 'home' }) // 'Matched route "home".'
 */
export function interpolate(template: string, values: Record<string, unknown>): string {
  if (!template.includes('{')) return template;
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    if (!(key in values)) return whole;
    const value = values[key];
    if (value === null) return 'null';
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Error) return `[object ${value.constructor.name}]`;
    if (value === undefined) return whole;
    return `[${Array.isArray(value) ? 'array' : 'object'}]`;
  });
}

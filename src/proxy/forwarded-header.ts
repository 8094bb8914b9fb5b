import { splitOutsideQuotes, unquote } from '../internal/split-outside-quotes.js';

/** One element of an RFC 7239 `Forwarded` header: its parameters, names lower-cased, values unquoted. */
export type ForwardedElement = Record<string, string>;

/**
 * Parses an RFC 7239 `Forwarded` header into its comma-separated elements, each a map of its
 * `;`-separated `name=value` pairs. Quoted strings may contain `,`, `;` and `=`, and `\"` escapes
 * (RFC 7230 §3.2.6), as Symfony's HeaderUtils::split() allows.
 * @example parseForwarded('for="[2001:db8::1]:4711";proto=https, for=_hidden')
 * // [{ for: '[2001:db8::1]:4711', proto: 'https' }, { for: '_hidden' }]
 */
export function parseForwarded(value: string): ForwardedElement[] {
  const elements: ForwardedElement[] = [];
  for (const element of splitOutsideQuotes(value, ',')) {
    const params: ForwardedElement = {};
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      params[pair.slice(0, eq).trim().toLowerCase()] = unquote(pair.slice(eq + 1).trim());
    }
    if (Object.keys(params).length > 0) elements.push(params);
  }
  return elements;
}

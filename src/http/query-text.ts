import { headerText } from './header-text.js';

const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/**
 * The values a query string gives a parameter, in order, decoded as PHP's parse_str decodes them (`+` a
 * space, `%XX` a byte) with the bytes that are no UTF-8 kept as headerText keeps them (U+DC00 + byte), so
 * that rawurlencode writes them back as they came (`%FF`) where URLSearchParams would have made them U+FFFD.
 * @example queryTextValues('url=%FF&url=a+b', 'url') // ['\udcff', 'a b']
 */
export function queryTextValues(queryString: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of queryString.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (decodeComponent(equals === -1 ? pair : pair.slice(0, equals)) !== name) continue;
    values.push(equals === -1 ? '' : decodeComponent(pair.slice(equals + 1)));
  }
  return values;
}

function decodeComponent(component: string): string {
  // One character per byte, as node:http hands the request target over (and headerText reads it).
  const bytes = component.replace(/\+/g, ' ').replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return headerText(bytes);
}

import type { Request } from '../../http/request.js';
import { queryTextValues } from '../../http/query-text.js';
import { isNumericString } from '../../internal/php-numeric.js';
import type { ProfileQuery } from '../profile-store.js';
import type { SearchCriteria } from './views/search-form.js';
import { queryParameter } from './query-parameter.js';
import { parseSearchDate } from './search-date.js';

const CRITERIA = ['ip', 'method', 'status_code', 'url', 'start', 'end', 'limit'] as const;

/**
 * The stores' query from the search parameters: the dates as parseSearchDate reads them, `end` given as a
 * day including the whole day; of a parameter given twice, the last value (see queryParameter). A text
 * criterion `0` is none, as for the reference, whose storage tests each with PHP's truthiness (`$ip && …`),
 * false for '0' as for ''.
 */
export function parseSearchQuery(query: URLSearchParams, nowMs = Date.now()): ProfileQuery {
  const text = (name: string) => {
    const value = queryParameter(query, name);
    return value === null || value === '' || value === '0' ? undefined : value;
  };
  const date = (name: string, endOfDay: boolean) => parseSearchDate(queryParameter(query, name) ?? '', nowMs, endOfDay);
  // As PHP reads a numeric string (`1e3` is 1000), else its leading digits (`5abc` is 5). Number() alone
  // would also read `0x1A`, `0b11` and `Infinity`, which PHP does not count as numbers.
  const given = (queryParameter(query, 'limit') ?? '').trim();
  const limit = isNumericString(given) ? Math.floor(Number(given)) : Number.parseInt(given, 10);
  return {
    ip: text('ip'),
    method: text('method'),
    statusCode: text('status_code'),
    url: text('url'),
    start: date('start', false),
    end: date('end', true),
    type: 'request',
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 500) : 10,
  };
}

/** The criteria echoed back into the results' form. */
export function searchCriteria(request: Request): SearchCriteria {
  const criteria: SearchCriteria = {};
  for (const name of CRITERIA) criteria[name] = criterion(request, name) ?? '';
  return criteria;
}

/**
 * Symfony's search redirect: the criteria the search was given, in a fixed order, for its URL generator
 * to write; one left out is left out there too (the generator drops null parameters), an empty one stays.
 */
export function searchCriteriaGiven(request: Request): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of CRITERIA) {
    const value = criterion(request, name);
    if (value !== undefined) given[name] = value;
  }
  return given;
}

// The last value given, its bytes as sent: the redirect writes `url=%FF` back as `%FF`, as PHP's bytes are.
function criterion(request: Request, name: string): string | undefined {
  return queryTextValues(request.queryString, name).at(-1);
}

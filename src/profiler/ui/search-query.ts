import type { Request } from '../../http/request.js';
import type { ProfileQuery } from '../profile-store.js';
import type { SearchCriteria } from './views/search-form.js';

const CRITERIA = ['ip', 'method', 'status_code', 'url', 'start', 'end', 'limit'] as const;

// What the search form's date fields send: a day alone.
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UNIX_TIME = /^\d{1,12}$/;

/**
 * The stores' query from the search parameters. A day (`YYYY-MM-DD`, what the form sends) is a whole day,
 * `end` inclusive; a date with a time is that instant and a number Unix time, as the reference reads them
 * (`new DateTime($value)`, `@$value` when numeric). Anything else is no bound.
 */
export function parseSearchQuery(query: URLSearchParams): ProfileQuery {
  const text = (name: string) => query.get(name) || undefined;
  const date = (name: string, endOfDay: boolean) => {
    const given = (query.get(name) ?? '').trim();
    if (UNIX_TIME.test(given)) return Number(given);
    const value = Date.parse(given);
    if (Number.isNaN(value)) return undefined;
    return Math.floor(value / 1000) + (endOfDay && DAY.test(given) ? 86399 : 0);
  };
  // As PHP reads a numeric string (`1e3` is 1000), else its leading digits (`5abc` is 5).
  const given = (query.get('limit') ?? '').trim();
  const limit = given !== '' && Number.isFinite(Number(given)) ? Math.floor(Number(given)) : Number.parseInt(given, 10);
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
  for (const name of CRITERIA) criteria[name] = request.query.get(name) ?? '';
  return criteria;
}

/**
 * Symfony's search redirect: the criteria the search was given, in a fixed order, for its URL generator
 * to write; one left out is left out there too (the generator drops null parameters), an empty one stays.
 */
export function searchCriteriaGiven(request: Request): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of CRITERIA) {
    const value = request.query.get(name);
    if (value !== null) given[name] = value;
  }
  return given;
}

import type { Request } from '../../http/request.js';
import type { ProfileQuery } from '../profile-store.js';
import type { SearchCriteria } from './views/search-form.js';

const CRITERIA = ['ip', 'method', 'status_code', 'url', 'start', 'end', 'limit'] as const;

/** The stores' query from the search parameters; dates are whole days (`YYYY-MM-DD`), `end` inclusive. */
export function parseSearchQuery(query: URLSearchParams): ProfileQuery {
  const text = (name: string) => query.get(name) || undefined;
  const date = (name: string, endOfDay: boolean) => {
    const value = Date.parse(query.get(name) ?? '');
    return Number.isNaN(value) ? undefined : Math.floor(value / 1000) + (endOfDay ? 86399 : 0);
  };
  const limit = Number.parseInt(query.get('limit') ?? '', 10);
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

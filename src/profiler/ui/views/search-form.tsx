/** @jsxRuntime automatic @jsxImportSource preact */
/** The search criteria the results page was asked for, to fill the form back in. */
export type SearchCriteria = Partial<Record<'ip' | 'method' | 'status_code' | 'url' | 'token' | 'start' | 'end' | 'limit', string>>;

// The reference's list, in its order.
const METHODS = ['', 'DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'];
const LIMITS = ['10', '50', '100'];

/** Symfony's search bar: a plain GET form to /_profiler/search, which redirects to the results. */
export function SearchForm({ base, criteria }: { base: string; criteria: SearchCriteria }) {
  // No placeholder where there is no hint to give: HTML allows none on a date input, and an empty one
  // would only be noise for a screen reader.
  const field = (name: keyof SearchCriteria, label: string, type = 'text', placeholder?: string) => (
    <label>
      {label}
      <input type={type} name={name} value={criteria[name] ?? ''} placeholder={placeholder} />
    </label>
  );
  return (
    <form id="search" class="search-form" method="get" action={`${base}/_profiler/search`}>
      {field('ip', 'IP', 'text', 'e.g. 203.0.113.7')}
      <label>
        Method
        <select name="method">
          {METHODS.map((method) => (
            <option value={method} selected={(criteria.method ?? '') === method}>
              {method === '' ? 'Any' : method}
            </option>
          ))}
        </select>
      </label>
      {field('status_code', 'Status', 'text', 'e.g. 404')}
      {field('url', 'URL', 'text', 'substring, or !substring')}
      {field('token', 'Token')}
      {field('start', 'From', 'date')}
      {field('end', 'Until', 'date')}
      <label>
        Results
        <select name="limit">
          {LIMITS.map((limit) => (
            <option value={limit} selected={(criteria.limit ?? '10') === limit}>
              {limit}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

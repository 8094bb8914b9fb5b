/** @jsxRuntime automatic @jsxImportSource preact */
import type { ProfileSummary } from '../../profile.js';
import { Layout } from './layout.js';
import { SearchForm, type SearchCriteria } from './search-form.js';

interface SearchResultsProps {
  results: ProfileSummary[];
  /** The durable store's error, when only the records held in memory were searched. */
  unavailable?: string | undefined;
  base: string;
  criteria: SearchCriteria;
}

/** The profiles matching a search, newest first (Symfony's results.html.twig), under the search form. */
export function SearchResults({ results, unavailable, base, criteria }: SearchResultsProps) {
  return (
    <Layout base={base} title="Profile Search · Profiler">
      <div id="summary">
        <h2>Profile Search</h2>
        <SearchForm base={base} criteria={criteria} />
      </div>
      <div id="panel">
        {/* The reference's wording: "No results found", else the count (also "1 results found"). */}
        <h2>{results.length === 0 ? 'No' : results.length} results found</h2>
        {unavailable !== undefined && (
          <p class="storage-warning" role="alert">
            The profile storage is unavailable ({unavailable}): only the records this process still holds in memory are listed.
          </p>
        )}
        {results.length === 0 ? (
          <div class="empty">
            <p>The query returned no result.</p>
          </div>
        ) : (
          <table id="search-results">
            <thead>
              <tr>
                <th>Status</th>
                <th>IP</th>
                <th>Method</th>
                <th>URL</th>
                <th>Time</th>
                <th>Token</th>
              </tr>
            </thead>
            <tbody>
              {results.map((result) => (
                <tr class={result.statusCode >= 400 ? 'status-error' : undefined}>
                  <td>{result.statusCode}</td>
                  <td>{result.ip}</td>
                  <td>{result.method}</td>
                  <td>
                    {result.url}
                    {result.parent !== undefined && <span class="muted"> (sub-request of {result.parent})</span>}
                  </td>
                  <td>{new Date(result.time * 1000).toISOString()}</td>
                  <td>
                    <a href={`${base}/_profiler/${result.token}`}>{result.token}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Layout>
  );
}

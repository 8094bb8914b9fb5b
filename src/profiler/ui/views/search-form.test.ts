import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import { SearchForm } from './search-form.js';

function inputs(): Map<string, string> {
  const html = renderToString(SearchForm({ base: '', criteria: { start: '2026-11-22' } }));
  return new Map([...html.matchAll(/<input [^>]*name="([a-z_]+)"[^>]*>/g)].map((match) => [match[1]!, match[0]]));
}

describe('SearchForm', () => {
  it('gives the date fields no placeholder, which HTML does not allow on them', () => {
    assert.doesNotMatch(inputs().get('start')!, /placeholder/);
    assert.doesNotMatch(inputs().get('end')!, /placeholder/);
  });

  it('writes a placeholder only where it gives a hint', () => {
    assert.match(inputs().get('ip')!, /placeholder="e\.g\. 203\.0\.113\.7"/);
    assert.doesNotMatch(inputs().get('token')!, /placeholder/);
  });
});

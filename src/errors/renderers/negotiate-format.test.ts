import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateErrorFormat } from './negotiate-format.js';

describe('negotiateErrorFormat', () => {
  const table: [string | undefined, string][] = [
    ['application/json', 'json'],
    ['application/x-json', 'json'],
    ['application/problem+json', 'json'],
    // Compared as written, as the reference's format table compares them.
    ['APPLICATION/JSON', 'html'],
    ['Application/Json, application/xml;q=0.1', 'xml'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['application/x-xml', 'xml'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['text/html;q=0.5, application/json', 'json'],
    ['application/json;q=0.1, application/xml;q=0.2', 'xml'],
    ['*/*', 'html'],
    ['application/*', 'html'],
    ['text/plain', 'html'],
    ['text/plain, application/json;q=0.5', 'html'],
    ['image/png, application/json;q=0.5', 'json'],
    [undefined, 'html'],
    ['', 'html'],
    ['garbage;;;q=x,,', 'html'],
    [';q=1, /, application/', 'html'],
    // A type given twice counts once, as given last (Symfony's AcceptHeader), and so does a repeated q.
    ['application/json, text/html;q=0.9, application/json;q=0.1', 'html'],
    ['text/html;q=0.9, text/html;q=0.333, application/x-json;q=0.5', 'json'],
    ['application/json;q=0.5;q=0.1, text/html;q=0.3', 'html'],
    ['application/json;q=0.1, application/xml;q=0.2, APPLICATION/JSON', 'xml'],
    ['application/json;q=0.1, application/xml;q=0.2, application/json', 'json'],
    // Quality 0, below 0 or no number: last in the reference's order, yet still a format when none other is.
    ['application/json;q=0', 'json'],
    ['application/json;q=-1', 'json'],
    ['application/json;q=abc', 'json'],
    ['application/json;q=0, text/html;q=0.5', 'html'],
    ['text/csv, application/json;q=0', 'json'],
    ['application/json;q=-1, application/xml;q=0', 'xml'],
    ['application/json;q=0, application/xml;q=0', 'json'],
    ['text/html;title="a, b";q=0.5, application/json;q=0.4', 'html'],
    // An empty quality is PHP's (float) '', 0: after every other type.
    ['application/json;q=, text/html;q=0.5', 'html'],
    ['application/json;q="", text/html;q=0.5', 'html'],
    ['text/html;q=, application/json;q=0.5', 'json'],
    ['application/json;q=', 'json'],
  ];

  for (const [accept, expected] of table) {
    it(`answers ${expected} for Accept ${JSON.stringify(accept)}`, () => {
      assert.equal(negotiateErrorFormat(accept), expected);
    });
  }

  it('lets a forced format win over Accept', () => {
    assert.equal(negotiateErrorFormat('text/html', 'json'), 'json');
    assert.equal(negotiateErrorFormat('application/json', 'html'), 'html');
  });

  it('falls back to HTML for a forced format that cannot be serialised', () => {
    assert.equal(negotiateErrorFormat('application/json', 'txt'), 'html');
  });
});

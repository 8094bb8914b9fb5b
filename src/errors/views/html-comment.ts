import { renderToString } from 'preact-render-to-string';
import { html } from '../../internal/html-template.js';

/**
 * An HTML comment carrying user text, as the reference's debug page opens and closes with
 * `<!-- <message> (404 Not Found) -->`. The text is escaped by preact as a text node; preact leaves `>`
 * as is (harmless in text, fatal in a comment, where `-->` or `--!>` would end it), so the escaped
 * output's `>` are turned into `&gt;` too: the comment can then only end where we end it.
 * @example renderHtmlComment('a "b" --> c') // '<!-- a &quot;b&quot; --&gt; c -->'
 */
export function renderHtmlComment(text: string): string {
  return `<!-- ${renderToString(html`${text}`).replaceAll('>', '&gt;')} -->`;
}

import { escapeHtmlText } from '../../internal/html-template.js';

/**
 * An HTML comment carrying user text, as the reference's debug page opens and closes with
 * `<!-- <message> (404 Not Found) -->`. The text is escaped with its `>` (harmless in text, fatal in a
 * comment, where `-->` or `--!>` would end it): the comment can then only end where we end it.
 * @example renderHtmlComment('a "b" --> c') // '<!-- a &quot;b&quot; --&gt; c -->'
 */
export function renderHtmlComment(text: string): string {
  return `<!-- ${escapeHtmlText(text)} -->`;
}

import type { VNode } from 'preact';
import { jsxEscape, jsxTemplate } from 'preact/jsx-runtime';
import { substituteLikePhp } from './php-substitute.js';

/**
 * Markup as a tagged template, rendered and escaped by preact as JSX is: every interpolated value is text,
 * escaped (`"`, `&`, `<`, as preact escapes text and attribute values), except an element (JSX, another
 * html`` template) or a list, which preact renders in place and escapes itself; null, undefined and
 * booleans render nothing. It is the form preact's own precompiled JSX takes (`jsxTemplate`): the static
 * parts stay whole strings, where JSX builds and walks a node per element. The debug page and the
 * toolbar cost about a microsecond an element that way, a large part of a debug 404, and produced
 * a string of a few thousand pieces that took as long again to join when written out.
 * Attribute values must be written between double quotes. Line breaks and the indentation after them are
 * left out, as JSX leaves them out between tags.
 * @example renderToString(html`<a href="${url}">${label}</a>`)
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): VNode {
  const expressions = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) expressions[i] = escapeValue(values[i]);
  return jsxTemplate(layoutFree(strings), ...expressions);
}

// A template's static parts without the line breaks and indentation that lay it out in the source, as JSX
// drops them between tags: a template may span lines, and a space wanted at a line's end is written
// within the line. Worked out once per template: its strings array is the same object at every call.
const withoutLayout = new WeakMap<TemplateStringsArray, string[]>();

function layoutFree(strings: TemplateStringsArray): string[] {
  let parts = withoutLayout.get(strings);
  if (parts === undefined) withoutLayout.set(strings, (parts = strings.map((part) => part.replace(/[ \t]*\n\s*/g, ''))));
  return parts;
}

/**
 * Markup that is already safe, inserted as it is: markup rendered by preact earlier (a cached trace frame)
 * or a stylesheet of our own. Never text from a request.
 */
export function trustedHtml(markup: string): VNode {
  return jsxTemplate([markup]);
}

/**
 * Text escaped as PHP's `htmlspecialchars()` escapes it in the reference's templates: preact's escaping
 * (`&`, `<`, `"`) plus `>`, which preact leaves as HTML allows in text; with `quotes`, `'` too
 * (ENT_QUOTES), for a value that also goes between single quotes. A header's bytes that are no UTF-8 become
 * U+FFFD as ENT_SUBSTITUTE makes them, one per ill-formed sequence (see substituteLikePhp). Where the
 * reference's bytes show (the debug page's title and message, a redirect's body, a comment), keel's are
 * then the same.
 * @example escapeHtmlText('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 */
export function escapeHtmlText(text: string, { quotes = false } = {}): string {
  // jsxEscape() is the escaping preact's renderer applies to text, without a node to build and render.
  const escaped = (jsxEscape(substituteLikePhp(text)) as string).replaceAll('>', '&gt;');
  return quotes ? escaped.replaceAll("'", '&#039;') : escaped;
}

// Outside ASCII: whole code points (a surrogate pair is one character reference), lone surrogates alone.
const NON_ASCII = /[\u0080-\u{10ffff}]/u;
const EACH_NON_ASCII = /[\u0080-\u{10ffff}]/gu;

/**
 * Markup with every character outside ASCII written as a numeric character reference (`§` → `&#167;`),
 * which a browser reads as the same document, in text and attribute values alike. A page that is all ASCII
 * goes to the socket as a copy of its characters; one `§` in a source excerpt made node encode the whole
 * 32 kB debug page as UTF-8, character by character (see writeResponse). For markup made once and kept.
 * @example asciiHtml('<code>// RFC 9112 §9.6</code>') // '<code>// RFC 9112 &#167;9.6</code>'
 */
export function asciiHtml(markup: string): string {
  return NON_ASCII.test(markup) ? markup.replace(EACH_NON_ASCII, (character) => `&#${character.codePointAt(0)!};`) : markup;
}

function escapeValue(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  // An element (preact's carry their own `constructor: undefined`), or a list that preact renders item by
  // item, escaping its strings: as it is. jsxEscape would escape a list's strings once more.
  if (typeof value === 'object' && (Array.isArray(value) || (Object.hasOwn(value, 'constructor') && (value as { constructor?: unknown }).constructor === undefined))) return value;
  // Anything else as its text; an object without a prototype has no toString.
  // A header's bytes that are no UTF-8 as the reference's escaping (htmlspecialchars, ENT_SUBSTITUTE) shows them.
  return jsxEscape(substituteLikePhp(typeof (value as { toString?: unknown }).toString === 'function' ? String(value) : Object.prototype.toString.call(value)));
}

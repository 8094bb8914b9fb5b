import { isNumericString } from '../../internal/php-numeric.js';
import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

// Characters XML 1.0 cannot carry at all, escaped or not; an error message may contain them.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// XmlEncoder's valid element names: a letter or `_`, then letters, digits, `.`, `_`, `:` or `-`.
const ELEMENT_NAME = /^[\p{L}_][\p{L}0-9._:-]*$/u;
// What makes XmlEncoder wrap a text in CDATA.
const NEEDS_CDATA = /[<>&]/;
// What libxml writes as character references in a document without a declared encoding.
const REFERENCED = /[\r\u0080-\u{10FFFF}]/gu;

/**
 * The problem details as XML under a `<response>` root, byte for byte as Symfony's XmlEncoder writes them:
 * one element per field, one element per item of a list (`<trace>` per frame), `<x/>` for an empty list or
 * null, a text holding `<`, `>` or `&` in CDATA (a `]]>` inside split across two sections), any other text
 * as it is but for its non-ASCII characters and carriage returns, written as character references.
 */
export class XmlRenderer implements Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError {
    const problem = createProblem(flat, context.debug);
    const body = `<?xml version="1.0"?>\n<response>${toElements(problem)}</response>\n`;
    // text/xml is the first MIME type of Symfony's `xml` format; the reference sends it with a charset.
    return renderProblemResponse(flat, context, 'text/xml; charset=UTF-8', body);
  }
}

/**
 * `{ a: 1, list: [{ b: 2 }, { b: 3 }] }` → `<a>1</a><list><b>2</b></list><list><b>3</b></list>` (XmlEncoder's
 * rule for lists); a key that is a number or no element name (an extension's `items[0].name`) becomes
 * `<item key="items[0].name">`, as XmlEncoder writes it, so that the document stays well-formed.
 */
function toElements(value: object): string {
  let xml = '';
  for (const [key, field] of Object.entries(value)) {
    const tag = isElementName(key) ? { open: key, close: key } : { open: `item key="${xmlAttribute(key)}"`, close: 'item' };
    const items: unknown[] = Array.isArray(field) ? field : [field];
    if (items.length === 0) xml += `<${tag.open}/>`;
    for (const item of items) xml += element(tag, item);
  }
  return xml;
}

function element(tag: { open: string; close: string }, item: unknown): string {
  if (item === null || item === undefined) return `<${tag.open}/>`;
  if (typeof item === 'object') {
    const inner = toElements(item);
    return inner === '' ? `<${tag.open}/>` : `<${tag.open}>${inner}</${tag.close}>`;
  }
  const text = typeof item === 'boolean' ? (item ? '1' : '0') : String(item);
  return `<${tag.open}>${xmlText(text)}</${tag.close}>`;
}

// XmlEncoder::isElementNameValid, and no number (is_numeric keys are items there too).
function isElementName(key: string): boolean {
  return ELEMENT_NAME.test(key) && !isNumericString(key);
}

function xmlAttribute(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/[&<"]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&quot;'));
}

function xmlText(value: string): string {
  const text = value.replace(NOT_XML, '\uFFFD');
  if (NEEDS_CDATA.test(text)) return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
  return text.replace(REFERENCED, (ch) => `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`);
}

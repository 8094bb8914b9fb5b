import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

// Characters XML 1.0 cannot carry at all, escaped or not; an error message may contain them.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
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

/** `{ a: 1, list: [{ b: 2 }, { b: 3 }] }` → `<a>1</a><list><b>2</b></list><list><b>3</b></list>` (XmlEncoder's rule for lists). */
function toElements(value: object): string {
  let xml = '';
  for (const [key, field] of Object.entries(value)) {
    const items: unknown[] = Array.isArray(field) ? field : [field];
    if (items.length === 0) xml += `<${key}/>`;
    for (const item of items) xml += element(key, item);
  }
  return xml;
}

function element(key: string, item: unknown): string {
  if (item === null || item === undefined) return `<${key}/>`;
  if (typeof item === 'object') {
    const inner = toElements(item);
    return inner === '' ? `<${key}/>` : `<${key}>${inner}</${key}>`;
  }
  const text = typeof item === 'boolean' ? (item ? '1' : '0') : String(item);
  return `<${key}>${xmlText(text)}</${key}>`;
}

function xmlText(value: string): string {
  const text = value.replace(NOT_XML, '\uFFFD');
  if (NEEDS_CDATA.test(text)) return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
  return text.replace(REFERENCED, (ch) => `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`);
}

import { h, type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

type XmlNode = VNode<unknown>;
const element = (name: string, children?: XmlNode[] | string): XmlNode => h(name, null, children) as XmlNode;

// Characters XML 1.0 cannot carry at all, escaped or not; an error message may contain them.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * The problem details as XML under a `<response>` root, like Symfony's XmlEncoder: one element per field,
 * one `<trace>` element per frame. Element text goes through preact's escaping.
 */
export class XmlRenderer implements Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError {
    const problem = createProblem(flat, context.debug);
    const body = `<?xml version="1.0"?>\n${renderToString(element('response', toElements(problem)))}\n`;
    // text/xml is the first MIME type of Symfony's `xml` format; the reference sends it with a charset.
    return renderProblemResponse(flat, context, 'text/xml; charset=UTF-8', body);
  }
}

/** `{ a: 1, list: [{ b: 2 }, { b: 3 }] }` → `<a>1</a><list><b>2</b></list><list><b>3</b></list>` (XmlEncoder's rule for lists). */
function toElements(value: object): XmlNode[] {
  return Object.entries(value).flatMap(([key, field]) => {
    const items: unknown[] = Array.isArray(field) ? field : [field];
    if (items.length === 0) return [element(key)];
    return items.map((item) =>
      typeof item === 'object' && item !== null ? element(key, toElements(item)) : element(key, String(item).replace(NOT_XML, '\uFFFD')),
    );
  });
}

import type { Request } from '../../http/request.js';
import { NotEncodableValueError } from '../../internal/php-json.js';
import { createFlatError, type FlatError } from '../flat-error.js';
import { CsvRenderer } from './csv-renderer.js';
import { HtmlRenderer } from './html-renderer.js';
import { JsonRenderer } from './json-renderer.js';
import { type ErrorFormat, negotiateErrorFormat } from './negotiate-format.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';
import { XmlRenderer } from './xml-renderer.js';
import { YamlRenderer } from './yaml-renderer.js';

export interface ErrorRendererOptions {
  /** The application's debug flag; a request can still turn internals off with `showException: false`. */
  debug: boolean;
  renderers?: Partial<Record<ErrorFormat, Renderer>>;
  /** The project directory when the profiler is mounted: the debug page links frames to its source view. */
  projectDir?: string;
  /** An editor's link format (KEEL_EDITOR): the debug page links frames to the editor instead. */
  editor?: string;
}

export interface RenderErrorOptions {
  /** Overrides `request.attributes.showException`. */
  showException?: boolean;
  /** Overrides `request.attributes.format` and the Accept header. */
  format?: string;
}

/**
 * Renders a thrown value in the format the client asked for (Symfony's SerializerErrorRenderer in front
 * of the HTML renderer): JSON or XML problem details when Accept names them (CSV and YAML too when a
 * route's `_format` does), the HTML page otherwise.
 * Every answer carries `Vary: Accept`, since the body depends on it. A body the format cannot encode (JSON
 * of a Referer's bytes that are no UTF-8) falls back to the HTML page, as Symfony's does.
 */
export class ErrorRenderer {
  readonly #debug: boolean;
  readonly #renderers: Record<ErrorFormat, Renderer>;

  constructor({ debug, renderers = {}, projectDir, editor }: ErrorRendererOptions) {
    this.#debug = debug;
    this.#renderers = { html: new HtmlRenderer({ projectDir, editor }), json: new JsonRenderer(), xml: new XmlRenderer(), csv: new CsvRenderer(), yaml: new YamlRenderer('yaml'), yml: new YamlRenderer('yml'), ...renderers };
  }

  render(error: unknown, request: Request, { showException, format }: RenderErrorOptions = {}): RenderedError {
    const debug = this.#debug && (showException ?? request.attributes.showException) !== false;
    const flat = createFlatError(error, { debug });
    const chosen = negotiateErrorFormat(request.header('accept'), format ?? request.attributes.format);
    const rendered = this.#renderIn(chosen, flat, { request, debug });
    if (!hasVary(rendered.headers)) rendered.headers.push(['Vary', 'Accept']);
    return rendered;
  }

  #renderIn(format: ErrorFormat, flat: FlatError, context: RenderContext): RenderedError {
    try {
      return this.#renderers[format].render(flat, context);
    } catch (error) {
      if (!(error instanceof NotEncodableValueError) || format === 'html') throw error;
      return this.#renderers.html.render(flat, context);
    }
  }
}

// A loop, not some() with a closure: every error page passes here.
function hasVary(headers: readonly (readonly [string, string])[]): boolean {
  for (let i = 0; i < headers.length; i++) if (headers[i]![0].length === 4 && headers[i]![0].toLowerCase() === 'vary') return true;
  return false;
}

import type { Request } from '../../http/request.js';
import { projectSourceLinker, type SourceLinker } from '../../internal/project-source.js';
import { readSourceExcerpt } from '../../internal/source-excerpt.js';
import type { FlatError } from '../flat-error.js';
import { renderErrorPage } from '../views/error-page.js';
import { renderExceptionPage } from '../views/exception-page.js';
import type { ExcerptReader } from '../views/trace.js';
import { debugExceptionHeaders } from './debug-headers.js';
import { withOwnHeaders } from './own-headers.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

export interface HtmlRendererOptions {
  /** Reads source lines for the trace; defaults to the bounded, cached file reader. */
  readExcerpt?: ExcerptReader;
  /**
   * The project directory, when the profiler is mounted: the debug page then links each frame of a project
   * file to the profiler's view of it, as the reference links its frames. No links without it.
   */
  projectDir?: string;
  /** An editor's link format (KEEL_EDITOR): frames link to the file in the editor instead, profiler or not. */
  editor?: string;
}

/**
 * The HTML error page: the rich exception page in debug, the generic "Oops!" page otherwise. Headers as
 * Symfony's HtmlErrorRenderer sets them: Content-Type, the debug headers, then the exception's own.
 */
export class HtmlRenderer implements Renderer {
  #readExcerpt: ExcerptReader;
  #projectDir: string | undefined;
  #editor: string | undefined;

  constructor({ readExcerpt = (file, line) => readSourceExcerpt(file, line), projectDir, editor }: HtmlRendererOptions = {}) {
    this.#readExcerpt = readExcerpt;
    this.#projectDir = projectDir;
    this.#editor = editor;
  }

  render(flat: FlatError, { request, debug }: RenderContext): RenderedError {
    const body = debug
      ? renderExceptionPage({ error: flat, logs: request.stack?.logs ?? [], request, readExcerpt: this.#readExcerpt, sourceLink: this.#sourceLink(request) })
      : renderErrorPage({ status: flat.status, statusText: flat.statusText });
    // Pushed one by one: spreading an array and an entries list went through the iterator protocol.
    const headers: [string, string][] = [['Content-Type', 'text/html; charset=UTF-8']];
    if (debug) headers.push(...debugExceptionHeaders(flat));
    return { status: flat.status, headers: withOwnHeaders(headers, flat.headers), body };
  }

  // Host-relative, behind the request's proxy prefix, as the toolbar's links are.
  #sourceLink(request: Request): SourceLinker | undefined {
    if (this.#editor === undefined && this.#projectDir === undefined) return undefined;
    return projectSourceLinker(request.origin.prefix, this.#projectDir ?? '', this.#editor);
  }
}

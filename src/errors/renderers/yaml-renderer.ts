import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';
import { dumpYamlInline } from './yaml-inline.js';

/**
 * The problem details as inline YAML, for a request whose format is `yaml` or `yml` (a route's `_format`,
 * such as the `/_error/404.yaml` preview), as the reference's serializer encodes them; the Content-Type is
 * the format's name, since Symfony knows no MIME type for either.
 */
export class YamlRenderer implements Renderer {
  readonly #format: 'yaml' | 'yml';

  constructor(format: 'yaml' | 'yml' = 'yaml') {
    this.#format = format;
  }

  render(flat: FlatError, context: RenderContext): RenderedError {
    return renderProblemResponse(flat, context, this.#format, dumpYamlInline(createProblem(flat, context.debug)));
  }
}

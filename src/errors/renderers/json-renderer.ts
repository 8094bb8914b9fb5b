import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

/** `application/json` problem details; `/` is not escaped (unlike PHP's json_encode), which JSON allows. */
export class JsonRenderer implements Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError {
    return renderProblemResponse(flat, context, 'application/json', JSON.stringify(createProblem(flat, context.debug)));
  }
}

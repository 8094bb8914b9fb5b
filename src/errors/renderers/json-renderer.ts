import { encodeLikePhp } from '../../internal/php-json.js';
import type { FlatError } from '../flat-error.js';
import { createProblem, renderProblemResponse } from './problem.js';
import type { RenderContext, RenderedError, Renderer } from './renderer.js';

/** `application/json` problem details, encoded as the reference encodes them (see encodeLikePhp). */
export class JsonRenderer implements Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError {
    return renderProblemResponse(flat, context, 'application/json', encodeLikePhp(createProblem(flat, context.debug)));
  }
}

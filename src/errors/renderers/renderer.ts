import type { Request } from '../../http/request.js';
import type { FlatError } from '../flat-error.js';

/** A rendered error: the body and the headers in the order they must be sent (Cache-Control and Date follow). */
export interface RenderedError {
  status: number;
  headers: [string, string][];
  body: string;
}

export interface RenderContext {
  request: Request;
  /** Show internals: the message of a 5xx, the class, the trace, X-Debug-Exception headers. */
  debug: boolean;
}

/** Turns a flattened error into one response format (Symfony's ErrorRendererInterface). */
export interface Renderer {
  render(flat: FlatError, context: RenderContext): RenderedError;
}

import type { Request } from '../http/request.js';
import type { ListenerTracer } from './event-dispatcher.js';

/**
 * The name under which the controller's own call is reported to the tracer, next to the kernel's event
 * names: it is no event (nothing listens to it), but the timeline puts it where it ran, between the
 * request's listeners and the response's, as the reference's timeline has its `controller` section.
 */
export const CONTROLLER_CALL = 'controllerCall';

/**
 * Runs `call` and reports its duration to `tracer` once it is over: when it returns, throws, or, for a
 * promise, settles. The result (or the error) is passed on untouched.
 */
export function tracedCall(tracer: ListenerTracer, request: Request, name: string, call: () => unknown): unknown {
  const start = performance.now();
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    report(tracer, request, name, start);
    throw error;
  }
  if (!(result instanceof Promise)) {
    report(tracer, request, name, start);
    return result;
  }
  // Made only for a promise: tsx names a closure held in a variable with a defineProperty call each time.
  return result.finally(() => report(tracer, request, name, start));
}

function report(tracer: ListenerTracer, request: Request, name: string, start: number): void {
  tracer({ request }, CONTROLLER_CALL, name, start, performance.now());
}

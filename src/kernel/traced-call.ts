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
  const report = (): void => tracer({ request }, CONTROLLER_CALL, name, start, performance.now());
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    report();
    throw error;
  }
  if (!(result instanceof Promise)) {
    report();
    return result;
  }
  return result.finally(report);
}

import type { RequestAttributes } from '../../http/request.js';

// Attributes the request panel already shows under their own names (route, route_params, controller), that
// other panels show (routing, rate limits, the error sub-request's exception), or that are the profiler's
// own bookkeeping: the listener samples alone would be hundreds of numbers.
const SHOWN_ELSEWHERE: ReadonlySet<string> = new Set<keyof RequestAttributes>([
  'route',
  'routeParams',
  'controller',
  'controllerName',
  'routing',
  'rateLimits',
  'exception',
  'listenerSamples',
  'tracedSubRequests',
]);

/**
 * The request's other attributes, those an application's listener sets for its controller (Symfony's
 * Request Attributes table shows every attribute) and keel's flags (`format`, `stateless`,
 * `removeCspHeaders`…), by reference: making them storable and masking them waits for lateCollect.
 * Undefined when there are none, so that most records store nothing for them.
 */
export function otherAttributes(attributes: RequestAttributes): Record<string, unknown> | undefined {
  let others: Record<string, unknown> | undefined;
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key) || SHOWN_ELSEWHERE.has(key)) continue;
    const value = (attributes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    (others ??= {})[key] = value;
  }
  return others;
}

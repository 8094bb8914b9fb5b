import type { Request } from '../../http/request.js';
import type { RoutingRecord } from '../../routing/router-listener.js';
import type { Collector } from './collector.js';
import { maskTextSecrets } from '../../config/mask-secrets.js';
import { maskRecord } from './mask.js';

export interface RouterData {
  route: string | undefined;
  routeParams: Record<string, string>;
  /** What the matcher was asked: enough to replay the match and show why each route missed. */
  context: { method: string; path: string; host: string; scheme: string };
  /** Set when the router answered with a trailing-slash or scheme redirect. */
  redirect: RoutingRecord['redirect'];
  /**
   * False when the router did not run: the request was answered before it (a refused host or method
   * override) or came with its controller chosen (an error sub-request). Absent from older profiles.
   */
  routed?: boolean;
}

/** The routing outcome: the matched route, or for a miss the match context the panel can replay. */
export class RouterCollector implements Collector<RouterData> {
  readonly name = 'router';

  collect(request: Request): RouterData {
    const routing = request.attributes.routing;
    return {
      route: request.attributes.route,
      routeParams: maskRecord(request.attributes.routeParams ?? {}),
      context: routing?.context ?? { method: request.method, path: request.pathInfo, host: request.host, scheme: request.scheme },
      // The Location repeats the query string: its secrets are masked as in the response panel.
      redirect: routing?.redirect === undefined ? undefined : { ...routing.redirect, url: maskTextSecrets(routing.redirect.url) },
      routed: routing !== undefined,
    };
  }
}

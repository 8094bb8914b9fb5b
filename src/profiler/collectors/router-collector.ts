import type { Request } from '../../http/request.js';
import type { Collector } from './collector.js';

export interface RouterData {
  route: string | undefined;
  routeParams: Record<string, string>;
  /** What the matcher was asked: enough to replay the match and show why each route missed. */
  context: { method: string; pathInfo: string; host: string; scheme: string; port: number };
}

export class RouterCollector implements Collector<RouterData> {
  readonly name = 'router';

  collect(request: Request): RouterData {
    let host = request.localHost;
    let scheme = request.encrypted ? 'https' : 'http';
    let port = 0;
    try {
      ({ host, scheme, port } = request.origin);
    } catch {
      // conflicting forwarded headers: keep the connection's view
    }
    return {
      route: request.attributes.route,
      routeParams: request.attributes.routeParams ?? {},
      context: { method: request.method, pathInfo: request.pathInfo, host, scheme, port },
    };
  }
}

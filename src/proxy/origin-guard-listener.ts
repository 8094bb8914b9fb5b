import { badRequest } from '../http/http-exception.js';
import { ConflictingHeadersException, SuspiciousOperationException } from '../http/request-exceptions.js';
import type { RequestEvent } from '../kernel/events.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import { originProblemMessage } from './origin-problem.js';
import type { ResolvedOrigin } from './trusted-proxies.js';

/**
 * Turns an origin problem into a 400 before anything else runs (`request`, priority 256, main requests
 * only; the request fails with it, see RequestEvent.fail), the way Symfony's getHost()/getClientIps()
 * throw SuspiciousOperationException and ConflictingHeadersException, which its kernel turns into a
 * BadRequestHttpException (the class the log line and the error page name). The resolver itself never throws,
 * so the error page can still be rendered from the fallback origin.
 */
export class OriginGuardListener implements Subscriber {
  subscribedEvents(): Subscription[] {
    return [{ event: 'request', listener: this.onRequest.bind(this), priority: 256, name: 'OriginGuardListener.onRequest' }];
  }

  onRequest(event: RequestEvent): void {
    if (!event.isMainRequest) return;
    const origin: ResolvedOrigin = event.request.origin;
    const message = originProblemMessage(origin);
    if (message === undefined) return;
    if (origin.problem === 'conflicting-forwarded-headers') {
      return event.fail(badRequest(new ConflictingHeadersException(message), 'KEEL_ERR_PROXY_CONFLICTING_HEADERS'));
    }
    return event.fail(badRequest(new SuspiciousOperationException(message), 'KEEL_ERR_UNTRUSTED_HOST'));
  }
}

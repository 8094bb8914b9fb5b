import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { ResponseEvent } from '../kernel/events.js';
import { encodeLikePhp } from '../internal/php-json.js';
import { rawurlencode } from '../internal/rawurlencode.js';
import { REDIRECT_COOKIE, parseCookies } from './collectors/request-collector.js';

/**
 * Lets the page after a redirect link to the redirect's profile (Symfony's RequestDataCollector): a
 * profiled redirect sets an `sf_redirect` cookie describing itself, and the next profiled main request,
 * whose request collector reads it, expires it. Runs after every other response listener (priority
 * -1024), so the Set-Cookie line comes last, where PHP always emits cookies.
 */
export class RedirectCookieListener implements Subscriber {
  #clock: () => number;

  constructor({ clock = Date.now }: { clock?: () => number } = {}) {
    this.#clock = clock;
  }

  subscribedEvents(): Subscription[] {
    return [{ event: 'response', listener: this.onResponse, priority: -1024, name: 'RedirectCookieListener.onResponse' }];
  }

  readonly onResponse = (event: ResponseEvent): void => {
    const { request, response } = event;
    const token = response.headers.get('x-debug-token');
    if (!event.isMainRequest || token === undefined) return;
    // By the status alone, as isRedirect() without an argument: a 201 Created carries a cookie too.
    if (response.isRedirect) {
      // json_encode's text: `/` escaped, and every character beyond ASCII as \uXXXX (a route named `t_café`).
      const value = encodeLikePhp({
        token,
        route: request.attributes.route ?? 'n/a',
        method: request.method,
        controller: request.attributes.controllerName ?? 'n/a',
        status_code: response.status,
        status_text: response.statusText,
      });
      const secure = request.isSecure ? '; secure' : '';
      response.headers.append('Set-Cookie', `${REDIRECT_COOKIE}=${rawurlencode(value)}; path=/${secure}; httponly; samesite=lax`);
    } else if (parseCookies(request.header('cookie'))[REDIRECT_COOKIE] !== undefined) {
      // Symfony's clearCookie(): value "deleted", a date one year and a second in the past, Max-Age=0.
      const expired = new Date(this.#clock() - 31_536_001_000).toUTCString();
      response.headers.append('Set-Cookie', `${REDIRECT_COOKIE}=deleted; expires=${expired}; Max-Age=0; path=/; httponly`);
    }
  };
}

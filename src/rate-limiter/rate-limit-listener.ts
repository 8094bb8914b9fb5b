import type { Request } from '../http/request.js';
import type { Subscriber, Subscription } from '../kernel/event-dispatcher.js';
import type { RequestEvent, ResponseEvent } from '../kernel/events.js';
import { rawUrlDecode } from '../routing/raw-url-decode.js';
import type { RouteOptions } from '../routing/route.js';
import { createTooManyRequests, storageUnavailable, type RateLimit } from './rate-limit.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { accountKey, clientKey } from './rate-limit-key.js';
import type { RateLimiter } from './rate-limiter.js';
import { RateLimiterConfigError } from './rate-limiter-config-error.js';
import { didYouMean } from '../internal/closest-name.js';
import { ADDRESS_CEILING_FACTOR, MAX_LIMIT } from './address-ceiling.js';

/** One limiter consulted for a request, kept on it for the profiler's rate limiter panel. */
export interface RateLimitRecord {
  limiter: string;
  policy: string;
  /** The route name, or the configured path prefix, that brought the limiter in. */
  scope: string;
  key: string;
  rateLimit: RateLimit;
}

declare module '../http/request.js' {
  interface RequestAttributes {
    rateLimits?: RateLimitRecord[];
  }
}

/**
 * What a route says about rate limiting, in its `options`:
 * `limiters` the limiter names; `limiterAccount` a body field naming the account (the key becomes
 * address + account); `limiterHeaders: false` for the reference's bare 429 (no headers at all);
 * `limiterMessage` the 429's message.
 */
declare module '../routing/route.js' {
  // A route's limiter options, typed where a route table is written (and checked again at start-up).
  interface RouteOptions {
    limiters?: string[];
    limiterAccount?: string;
    limiterHeaders?: boolean;
    limiterMessage?: string;
  }
}

// A limiter to consult: its name, the scope counted in (the route's name or a path prefix), and whether the
// route names it (keyed by account on a route that reads one) or a path prefix brings it in (the address's).
type Wanted = [limiter: string, scope: string, own: boolean];

export type RouteLimiterOptions = Pick<RouteOptions, 'limiters' | 'limiterAccount' | 'limiterHeaders' | 'limiterMessage'>;

export interface RateLimitListenerOptions {
  limiters: ReadonlyMap<string, RateLimiter>;
  /** The route table, to read each matched route's options (a RouteCollection). */
  routes: Iterable<{ name: string; options: Readonly<RouteOptions> }> & { get(name: string): { options: Readonly<RouteOptions> } | undefined };
  /**
   * Path prefix → limiter name: every path under the prefix shares one quota of it per client address,
   * a route that names the same limiter included (see #limitersFor).
   */
  paths?: readonly (readonly [prefix: string, limiter: string])[];
}

// keel's own development pages: the profiler, its toolbar, the error previews.
const NEVER_LIMITED = ['/_profiler', '/_wdt', '/_error'];

/**
 * Applies the limiters of the matched route (kernel `request` event, priority 16: after the router at
 * 32, so the route is known, and before the controller). A refusal is thrown as
 * TooManyRequestsHttpException and goes through the error pipeline like any other error; accepted
 * responses get the same rate headers on the `response` event. Unmatched paths never reach it, and the
 * profiler is never limited.
 * @example kernel.dispatcher.addSubscriber(new RateLimitListener({ limiters, routes: collection, paths: [['/api/', 'default']] }));
 */
export class RateLimitListener implements Subscriber {
  readonly #limiters: ReadonlyMap<string, RateLimiter>;
  readonly #routes: RateLimitListenerOptions['routes'];
  readonly #paths: readonly (readonly [string, string])[];
  // Per limiter, its per-address ceiling (`sensitive.address`) for routes keyed by account.
  readonly #ceilings = new Map<string, RateLimiter>();
  // The limiter and the id each record this listener made was counted under, for reset().
  readonly #counted = new WeakMap<RateLimitRecord, readonly [RateLimiter, string]>();

  constructor({ limiters, routes, paths = [] }: RateLimitListenerOptions) {
    this.#limiters = limiters;
    for (const [name, limiter] of limiters) {
      if (limiter.config.policy === 'no_limit') continue;
      checkScalable(name, limiter);
      this.#ceilings.set(name, limiter.scaled(`${name}.address`, ADDRESS_CEILING_FACTOR));
    }
    this.#routes = routes;
    this.#paths = paths;
    for (const [, name] of paths) this.#check(name, 'a path prefix');
    for (const route of routes) {
      checkLimiterOptions(route.name, route.options);
      for (const name of route.options.limiters ?? []) this.#check(name, `route "${route.name}"`);
    }
  }

  subscribedEvents(): Subscription[] {
    return [
      { event: 'request', listener: this.onRequest.bind(this), priority: 16, name: 'RateLimitListener.onRequest' },
      { event: 'response', listener: this.onResponse.bind(this), priority: 0, name: 'RateLimitListener.onResponse' },
    ];
  }

  // Sync when there is nothing to consume (sub-requests, routes without limiters): an async listener would
  // turn every request into a promise chain (see Kernel.process).
  onRequest(event: RequestEvent): void | Promise<void> {
    const { request } = event;
    if (!event.isMainRequest || request.attributes.route === undefined) return;
    // A redirect the router answers itself (trailing slash, scheme) never reaches the route's controller,
    // where the reference consumes its limiter: it takes no token and carries no rate headers.
    if (request.attributes.routing?.redirect !== undefined) return;
    // Prefixes are compared with the path the router matched: decoded, as `/%61pi/status` reaches the
    // route of `/api/status` and must meet its limiter too.
    const path = rawUrlDecode(request.pathInfo) ?? request.pathInfo;
    if (NEVER_LIMITED.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return;
    const options: Readonly<RouteLimiterOptions> = this.#routes.get(request.attributes.route)?.options ?? {};
    const wanted = this.#limitersFor(request.attributes.route, path, options);
    if (wanted.length === 0) return;
    return this.#consume(event, options, wanted);
  }

  async #consume(event: RequestEvent, options: RouteLimiterOptions, wanted: Wanted[]): Promise<void> {
    const { request } = event;
    const address = clientKey(request.clientIp);
    let key = address;
    const ceilings: (readonly [RateLimiter, string, string, boolean])[] = [];
    if (options.limiterAccount !== undefined) {
      const account = await accountKey(request, options.limiterAccount);
      if (account !== undefined) key = `${address}-${account}`;
      // A quota per account alone would let one address try a password on account after account: the
      // address as a whole also has a ceiling, whether the request names an account or not.
      for (const [name, scope, own] of wanted) {
        const ceiling = own ? this.#ceilings.get(name) : undefined;
        if (ceiling !== undefined) ceilings.push([ceiling, scope, address, true]);
      }
    }
    // A path prefix's quota is the address's whatever account the route reads: keyed by account too, it
    // was one quota per account name, which a client naming a new one each time went round.
    const consulted = [...wanted.map(([name, scope, own]) => [this.#limiters.get(name)!, scope, own ? key : address, own] as const), ...ceilings];
    const records = await Promise.all(
      consulted.map(async ([limiter, scope, limiterKey, own]) => {
        const record = { limiter: limiter.name, policy: limiter.config.policy, scope, key: limiterKey, rateLimit: await limiter.consume(`${scope}-${limiterKey}`) };
        // Only the route's own are reset(): a prefix's quota is the address's for every path under it.
        if (own) this.#counted.set(record, [limiter, `${scope}-${limiterKey}`]);
        return record;
      }),
    );
    request.attributes.rateLimits = records;
    const refused = records.map((record) => record.rateLimit).filter((limit) => !limit.accepted);
    if (refused.length === 0) return;
    if (refused.every((limit) => limit.degraded)) {
      event.fail(storageUnavailable());
      return;
    }
    event.fail(createTooManyRequests(records.map((record) => record.rateLimit), { message: options.limiterMessage ?? '', bare: options.limiterHeaders === false }));
  }

  onResponse(event: ResponseEvent): void {
    const { request, response } = event;
    const records = request.attributes.rateLimits;
    if (!event.isMainRequest || records === undefined || records.some((record) => !record.rateLimit.accepted)) return;
    const options: Readonly<RouteLimiterOptions> = this.#routes.get(request.attributes.route ?? '')?.options ?? {};
    if (options.limiterHeaders === false) return;
    // Before Cache-Control and Date, where the reference's controllers put them by building the Response
    // with them; a header the controller set itself stays as it is.
    for (const [name, value] of rateLimitHeaders(records.map((record) => record.rateLimit))) {
      if (!response.headers.has(name)) response.headers.insertBefore('Cache-Control', name, value);
    }
  }

  /**
   * Forgets what the request's route limiters counted for it, the account's quota and the address's ceiling
   * of a login alike: after a successful login, as Symfony's login throttling resets its limiters. A path
   * prefix's quota is left as it is (each login would give the address the whole prefix's quota back), and
   * a record a controller added itself is the controller's to reset.
   */
  async reset(request: Request): Promise<void> {
    const counted = (request.attributes.rateLimits ?? []).map((record) => this.#counted.get(record)).filter((entry) => entry !== undefined);
    await Promise.all(counted.map(([limiter, id]) => limiter.reset(id)));
  }

  /**
   * The route's own limiters, then every matching path prefix's. A limiter a route names under a prefix of
   * the same limiter counts in the prefix's quota, which every path under it shares, as one limiter and one
   * key are one quota in Symfony; kept to a quota of its own, the route escaped the prefix's
   * (RATE_LIMIT_DEFAULT_PATHS=/api/, limit 3: /api/status and /api/limited, which names `default`, admitted
   * 3 each). A route keyed by account counts in both, its quota per account being another one. Counting
   * every route in both would have made one quota two, whose refusals take tokens from each other under
   * concurrent hits.
   */
  #limitersFor(route: string, path: string, options: RouteLimiterOptions): Wanted[] {
    const wanted: Wanted[] = [];
    const byAccount = options.limiterAccount !== undefined;
    for (const name of options.limiters ?? []) {
      if (byAccount || !this.#paths.some(([prefix, other]) => other === name && path.startsWith(prefix))) wanted.push([name, route, true]);
    }
    for (const [prefix, name] of this.#paths) {
      if (path.startsWith(prefix) && !wanted.some(([other, scope, own]) => !own && other === name && scope === prefix)) wanted.push([name, prefix, false]);
    }
    return wanted;
  }

  #check(name: string, where: string): void {
    if (!this.#limiters.has(name)) {
      throw new RateLimiterConfigError(`${where} names the rate limiter "${name}", which is not configured (known: ${[...this.#limiters.keys()].join(', ') || 'none'}); declare it with RATE_LIMITERS=${name} and its RATE_LIMIT_${name.toUpperCase()}_* settings.`);
    }
  }
}

/**
 * A limiter built in code with a limit the settings refuse (RATE_LIMIT_<NAME>_LIMIT): its address ceiling
 * would be no safe integer, and making it failed start-up with a bare RangeError about the ceiling.
 */
function checkScalable(name: string, limiter: RateLimiter): void {
  const { limit, rate } = limiter.config;
  if (limit <= MAX_LIMIT && (rate?.amount ?? 1) <= MAX_LIMIT) return;
  throw new RateLimiterConfigError(`The rate limiter "${name}" allows at most ${MAX_LIMIT} tokens (its limit and refill amount), so that its per-address ceiling, ${ADDRESS_CEILING_FACTOR} times it, counts exactly; got a limit of ${limit}${rate === undefined ? '' : ` and an amount of ${rate.amount}`}.`);
}

// The limiter options of a route; any other option naming a limit is a typo that would leave the route
// unlimited (`limitters`), or its account unkeyed (`limiterAcount`), without a word.
const LIMITER_OPTIONS = ['limiters', 'limiterAccount', 'limiterHeaders', 'limiterMessage'];
const NAMES_A_LIMIT = /limit/i;

/**
 * A route's limiter options as they must be written: a mistyped one (a string for `limiters`, `limiter`
 * for `limiters`) would leave a login route unthrottled, so it stops start-up instead.
 */
function checkLimiterOptions(route: string, options: Readonly<RouteOptions>): void {
  const where = `Route "${route}"`;
  const { limiters, limiterAccount, limiterHeaders, limiterMessage } = options as Record<string, unknown>;
  if (limiters !== undefined && !(Array.isArray(limiters) && limiters.every((name) => typeof name === 'string'))) {
    throw new RateLimiterConfigError(`${where}: options.limiters must be a list of limiter names, such as ['sensitive'] (got ${JSON.stringify(limiters)}).`);
  }
  const twice = (limiters as string[] | undefined)?.find((name, i, names) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new RateLimiterConfigError(`${where}: options.limiters names "${twice}" twice, which would count each request twice against it.`);
  for (const name of Object.keys(options)) {
    if (NAMES_A_LIMIT.test(name) && !LIMITER_OPTIONS.includes(name)) {
      throw new RateLimiterConfigError(`${where}: unknown option "${name}"${didYouMean(name, LIMITER_OPTIONS)}; the limiter options of a route are ${LIMITER_OPTIONS.join(', ')} (the limiters of a route are options.limiters, a list of names).`);
    }
  }
  if (limiterAccount !== undefined && typeof limiterAccount !== 'string') throw new RateLimiterConfigError(`${where}: options.limiterAccount must be the name of a body field.`);
  if (limiterHeaders !== undefined && typeof limiterHeaders !== 'boolean') throw new RateLimiterConfigError(`${where}: options.limiterHeaders must be true or false.`);
  if (limiterMessage !== undefined && typeof limiterMessage !== 'string') throw new RateLimiterConfigError(`${where}: options.limiterMessage must be a string.`);
}

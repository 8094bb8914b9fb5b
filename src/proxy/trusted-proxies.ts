import type { KeelConfig } from '../config/config.js';
import type { OriginResolver, Request, RequestOrigin } from '../http/request.js';
import { HeaderNameSet } from '../http/header-lines.js';
import { compileTrustedProxies, normalizeIp, normalizePeerIp, type TrustPredicate } from './compile-trusted-proxies.js';
import { parseForwarded } from './forwarded-header.js';
import { describeHost, parseAuthority, type Authority } from './host-header.js';
import { memoizeOrigins } from './origin-memo.js';
import { withoutTrailingSlashes } from '../internal/trailing-slashes.js';

export type TrustedHeader = KeelConfig['trustedHeaders'][number];

export interface OriginResolverOptions {
  trustedProxies?: readonly string[];
  trustedHeaders?: readonly TrustedHeader[];
  /** Regular expressions (case-insensitive, unanchored, as Symfony's trusted_hosts) the host must match. */
  trustedHosts?: readonly string[];
}

/** What went wrong, kept for the origin guard's message: the rejected host or the conflicting header. */
export interface ResolvedOrigin extends RequestOrigin {
  problemDetail?: string;
}

type Kind = 'for' | 'host' | 'proto' | 'port';

const X_HEADERS: Record<Kind, { header: string; name: string; source: string; trust: TrustedHeader }> = {
  for: { header: 'x-forwarded-for', name: 'X_FORWARDED_FOR', source: 'X-Forwarded-For', trust: 'x-forwarded-for' },
  host: { header: 'x-forwarded-host', name: 'X_FORWARDED_HOST', source: 'X-Forwarded-Host', trust: 'x-forwarded-host' },
  proto: { header: 'x-forwarded-proto', name: 'X_FORWARDED_PROTO', source: 'X-Forwarded-Proto', trust: 'x-forwarded-proto' },
  port: { header: 'x-forwarded-port', name: 'X_FORWARDED_PORT', source: 'X-Forwarded-Port', trust: 'x-forwarded-port' },
};
const SECURE_PROTOS = new Set(['https', 'on', 'ssl', '1']);
const SAFE_HOST = 'localhost';
// The source named for SAFE_HOST: never the header whose host was refused.
const FALLBACK = 'fallback for the refused host';
// A path, and never one that starts with `//`: the prefix begins every URL keel generates, and
// `//evil.example/…` in a Location header is a link to another host.
const PREFIX = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/**
 * Compiles the trusted-proxy settings once and returns the resolver the Request calls (lazily, on first
 * use of scheme/host/port/clientIp). It follows Symfony's Request: forwarded headers count only when the
 * TCP peer is a trusted proxy, and then only the kinds listed in trustedHeaders. It never throws, because
 * it also runs while an error page is rendered: a conflict between `Forwarded` and `X-Forwarded-*`, an
 * invalid host or an untrusted host is recorded in `origin.problem` (with a safe fallback view) for the
 * OriginGuardListener to turn into a 400. Requests with the same inputs share one frozen origin (see
 * memoizeOrigins). Invalid trusted-proxy entries throw a TrustedProxyError (`KEEL_ERR_CONFIG_TRUSTED_PROXY`) here.
 * @example
 * const resolveOrigin = createOriginResolver({ trustedProxies: ['127.0.0.1'], trustedHeaders: ['x-forwarded-for', 'x-forwarded-proto'] });
 * new Request({ method: 'GET', target: '/', headers, remoteAddress: '127.0.0.1', resolveOrigin }).clientIp;
 */
export function createOriginResolver({ trustedProxies = [], trustedHeaders = [], trustedHosts = [] }: OriginResolverOptions = {}): OriginResolver {
  const isTrusted = compileTrustedProxies(trustedProxies);
  const trust = new Set(trustedHeaders);
  const hostPatterns = trustedHosts.map((pattern) => new RegExp(pattern, 'i'));

  const resolve = (request: Request): ResolvedOrigin => {
    const peer = normalizePeerIp(request.remoteAddress) ?? request.remoteAddress;
    if (!isTrusted(peer, peer)) return checkHost(directOrigin(request, peer), hostPatterns, request);
    const conflicts = new Set<Kind>();
    const origin = forwardedOrigin(request, peer, isTrusted, trust, conflicts);
    // The reference's order: the kernel reads the client IPs, then the host (and checks it), then the
    // scheme and the port; the first of these to fail names the 400.
    const early = conflicts.has('for') ? 'for' : conflicts.has('host') ? 'host' : undefined;
    if (early !== undefined) return conflicted(request, peer, early, hostPatterns);
    const checked = checkHost(origin, hostPatterns, request);
    if (checked.problem !== undefined) return checked;
    const late = conflicts.has('proto') ? 'proto' : conflicts.has('port') ? 'port' : undefined;
    return late === undefined ? checked : conflicted(request, peer, late, hostPatterns);
  };
  // Every header the resolution reads besides Host: only trusted ones are read at all.
  return memoizeOrigins(resolve, [...trust]);
}

function directOrigin(request: Request, peer: string): ResolvedOrigin {
  const scheme = request.encrypted ? 'https' : 'http';
  const origin: ResolvedOrigin = {
    scheme,
    host: request.localHost,
    port: scheme === 'https' ? 443 : 80,
    clientIps: [peer],
    viaTrustedProxy: false,
    prefix: '',
    sources: { scheme: 'connection', host: 'server name', port: 'scheme default', clientIp: 'TCP peer' },
  };
  return applyHost(origin, hostHeader(request), 'Host header', undefined, request.localPort);
}

// The connection's own view, naming the forwarded header that conflicts with `Forwarded`. Its Host header
// is checked as any other: one the trusted hosts refuse must not become the request's host (an error page's
// URLs, the profile) because a conflict was found first.
function conflicted(request: Request, peer: string, kind: Kind, hostPatterns: RegExp[]): ResolvedOrigin {
  return { ...checkHost(directOrigin(request, peer), hostPatterns, request), problem: 'conflicting-forwarded-headers', problemDetail: X_HEADERS[kind].name };
}

/** The origin as the trusted proxy describes it; a kind whose two headers disagree is added to `conflicts` and read as absent. */
function forwardedOrigin(request: Request, peer: string, isTrusted: TrustPredicate, trust: Set<TrustedHeader>, conflicts: Set<Kind>): ResolvedOrigin {
  const forwarded = trust.has('forwarded') ? parseForwarded(request.header('forwarded') ?? '') : [];
  const headers: ForwardedHeaders = { request, forwarded, peer, isTrusted, trust, conflicts };
  const proto = readForwarded(headers, 'proto');
  // A header present but empty (or with an empty first item) says plain HTTP, as in the reference.
  const secure = proto.values.length > 0 ? SECURE_PROTOS.has(proto.values[0]!.toLowerCase()) : request.encrypted;
  const scheme = secure ? 'https' : 'http';
  const forwardedFor = readForwarded(headers, 'for');
  const forwardedHost = readForwarded(headers, 'host');
  const forwardedPort = readForwarded(headers, 'port', secure);
  const prefix = trust.has('x-forwarded-prefix') ? withoutTrailingSlashes(splitList(request.header('x-forwarded-prefix'))[0] ?? '') : '';

  const origin: ResolvedOrigin = {
    scheme,
    host: request.localHost,
    port: secure ? 443 : 80,
    clientIps: forwardedFor.clientIps ?? filterClientIps(forwardedFor.values, peer, isTrusted),
    viaTrustedProxy: true,
    prefix: PREFIX.test(prefix) ? prefix : '',
    // A client IP list of no address (`for=unknown`, `_hidden`) leaves the peer as the client: named so.
    sources: { scheme: proto.values.length > 0 ? proto.source : 'connection', host: 'server name', port: 'scheme default', clientIp: forwardedFor.values.some((value) => normalizeIp(stripPort(value)) !== undefined) ? forwardedFor.source : 'TCP peer' },
  };
  const hostValue = forwardedHost.values[0];
  const portText = forwardedPort.values[0];
  const portOverride = portText === undefined ? undefined : { port: portNumber(portText), source: forwardedPort.source };
  if (hostValue === undefined) return applyHost(origin, hostHeader(request), 'Host header', portOverride, request.localPort);
  // An empty forwarded host is the reference's host "": checked as such against the trusted hosts, then
  // replaced by the server name (see checkHost), rather than by the Host header the proxy chose not to pass.
  if (hostValue === '') return applyHost({ ...origin, host: '', sources: { ...origin.sources, host: forwardedHost.source } }, undefined, forwardedHost.source, portOverride);
  return applyHost(origin, hostValue, forwardedHost.source, portOverride);
}

/**
 * A forwarded port as the reference reads it (PHP's integer cast of its numeric start: `443abc` is 443); nothing
 * usable (empty, `0`, garbage, out of range) is undefined, and the scheme's default applies, never the port
 * of a Host header, which the proxy's port overrides.
 */
function portNumber(text: string): number | undefined {
  const leading = LEADING_NUMBER.exec(text)?.[0];
  const port = leading === undefined ? 0 : Math.trunc(Number(leading));
  return port >= 1 && port <= 65_535 ? port : undefined;
}

// The numeric start of a string as PHP casts it to an integer (`1e3` is 1000).
const LEADING_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i;
const HOST = new HeaderNameSet(['host']);

/**
 * The Host header; two of them are one invalid host, `a, b`, as PHP joins repeated headers (RFC 9112 §3.2:
 * a request with more than one Host gets a 400).
 */
function hostHeader(request: Request): string | undefined {
  const lines = request.headerLines(HOST);
  if (lines.length <= 2) return lines[1];
  const values: string[] = [];
  for (let i = 1; i < lines.length; i += 2) values.push(lines[i]!);
  return values.join(', ');
}

interface ForwardedValues {
  values: string[];
  /** Header name, or `Forwarded` when neither header gave a value. */
  source: string;
  /** For client addresses, when already filtered (see filterClientIps). */
  clientIps?: string[];
}

interface ForwardedHeaders {
  request: Request;
  forwarded: ReturnType<typeof parseForwarded>;
  peer: string;
  isTrusted: TrustPredicate;
  trust: Set<TrustedHeader>;
  conflicts: Set<Kind>;
}

/**
 * One forwarded value (proto, for, host or port) from RFC 7239 Forwarded and its X-Forwarded-* header,
 * whichever is trusted and present; both present and different is a conflict, recorded, and the kind then
 * reads as absent. Ports are compared as the texts the reference compares: the X-Forwarded-Port items and
 * what follows the last `:` of each `host=` (the scheme's default without one). A module function rather
 * than a closure in forwardedOrigin: tsx gives each named closure a defineProperty call per request.
 */
function readForwarded({ request, forwarded, peer, isTrusted, trust, conflicts }: ForwardedHeaders, kind: Kind, secure = false): ForwardedValues {
  const x = X_HEADERS[kind];
  const xValues = trust.has(x.trust) ? splitList(request.header(x.header)) : [];
  let fValues = forwarded.length === 0 ? [] : forwarded.flatMap((element) => (element[kind === 'port' ? 'host' : kind] === undefined ? [] : [element[kind === 'port' ? 'host' : kind]!]));
  if (kind === 'port') fValues = fValues.map((host) => forwardedPortText(host, secure));
  if (kind === 'for') {
    // Client addresses are compared once filtered, and the filtered list goes with the answer.
    const fromForwarded = filterClientIps(fValues, peer, isTrusted);
    if (xValues.length === 0) return { values: fValues, source: 'Forwarded', clientIps: fromForwarded };
    const fromX = filterClientIps(xValues, peer, isTrusted);
    if (sameList(fromForwarded, fromX)) return { values: fValues, source: 'Forwarded', clientIps: fromForwarded };
    if (fValues.length === 0) return { values: xValues, source: x.source, clientIps: fromX };
  } else {
    if (xValues.length === 0 || sameList(fValues, xValues)) return { values: fValues, source: 'Forwarded' };
    if (fValues.length === 0) return { values: xValues, source: x.source };
  }
  conflicts.add(kind);
  return { values: [], source: 'Forwarded', clientIps: kind === 'for' ? [] : undefined };
}

function forwardedPortText(host: string, secure: boolean): string {
  const colon = host.lastIndexOf(':');
  return host.endsWith(']') || colon === -1 ? (secure ? '443' : '80') : host.slice(colon + 1);
}

/**
 * Symfony's getHost()/getPort(): the port from the forwarded port when that header is there (the scheme's
 * default when it holds no usable port), else from the host value (`:0` is none, as PHP reads it), else by
 * scheme.
 */
function applyHost(origin: ResolvedOrigin, value: string | undefined, source: string, portOverride: { port: number | undefined; source: string } | undefined, serverPort?: number): ResolvedOrigin {
  let authority: Authority | undefined = { host: '', port: undefined };
  if (value === undefined || value.trim() === '') {
    // No Host at all: the server's own name and port, as the reference's SERVER_NAME and SERVER_PORT.
    if (portOverride === undefined && serverPort !== undefined) {
      origin.port = serverPort;
      origin.sources.port = 'server port';
    }
  } else {
    authority = parseAuthority(value);
    if (authority === undefined) {
      return { ...origin, host: SAFE_HOST, sources: { ...origin.sources, host: FALLBACK }, problem: 'invalid-host', problemDetail: describeHost(value) };
    }
  }
  if (authority.host !== '') {
    origin.host = authority.host;
    origin.sources.host = source;
  }
  if (portOverride !== undefined) {
    if (portOverride.port !== undefined) {
      origin.port = portOverride.port;
      origin.sources.port = portOverride.source;
    }
  } else if (authority.port !== undefined && authority.port !== 0) {
    origin.port = authority.port;
    origin.sources.port = source;
  }
  return origin;
}

/**
 * The trusted-host check, on whatever host the request ends up with: the server name too, when no Host
 * came, as the reference checks its SERVER_NAME. An empty forwarded host is checked as "" and then served
 * as the server name.
 */
function checkHost(origin: ResolvedOrigin, patterns: RegExp[], request: Request): ResolvedOrigin {
  if (origin.problem === undefined && patterns.length > 0 && !patterns.some((pattern) => pattern.test(origin.host))) {
    return { ...origin, host: SAFE_HOST, sources: { ...origin.sources, host: FALLBACK }, problem: 'untrusted-host', problemDetail: origin.host };
  }
  return origin.host === '' ? { ...origin, host: request.localHost } : origin;
}

/**
 * Symfony's normalizeAndFilterClientIps(): the peer appended, ports and brackets stripped, invalid and
 * trusted addresses dropped, the rest reversed so the nearest untrusted hop comes first; when every hop is
 * trusted, the left-most one. Example, trusting 10.0.0.0/8 with peer 10.0.0.2:
 * `X-Forwarded-For: 1.1.1.1, 203.0.113.7, 10.0.0.1` → ['203.0.113.7', '1.1.1.1'].
 */
function filterClientIps(values: string[], peer: string, isTrusted: TrustPredicate): string[] {
  const untrusted: string[] = [];
  let firstTrusted: string | undefined;
  for (const value of [...values, peer]) {
    const ip = normalizeIp(stripPort(value));
    if (ip === undefined) continue;
    if (isTrusted(ip, peer)) firstTrusted ??= ip;
    else untrusted.push(ip);
  }
  if (untrusted.length > 0) return untrusted.reverse();
  return firstTrusted === undefined ? [] : [firstTrusted];
}

function stripPort(value: string): string {
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close === -1 ? value : value.slice(1, close);
  }
  const colon = value.indexOf(':');
  return value.includes('.') && colon > 0 ? value.slice(0, colon) : value;
}

/**
 * The trimmed items of a comma-separated header value, empty ones included, as PHP's explode() gives them:
 * `X-Forwarded-Proto: , https` is a first value of "", not https.
 */
function splitList(value: string | undefined): string[] {
  const items: string[] = [];
  if (value === undefined) return items;
  // One pass without split/map: a proxy header is read for every request, usually a single item.
  let start = 0;
  while (start <= value.length) {
    let end = value.indexOf(',', start);
    if (end === -1) end = value.length;
    items.push(value.slice(start, end).trim());
    start = end + 1;
  }
  return items;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

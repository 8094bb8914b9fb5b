import { cookiePairs } from '../../http/cookie-pairs.js';
import type { Request, RequestOrigin } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { isProfileToken } from '../token.js';
import type { Collector } from './collector.js';
import { MASK, maskTextSecrets } from '../../config/mask-secrets.js';
import { maskParameters, maskRecord } from './mask.js';
import { collectPostParameters, type PostParameters } from './post-parameters.js';
import { otherAttributes } from './request-attributes.js';
import { shownContext } from '../../logging/shown-context.js';
import { collectRequestContent, type RequestContent } from './request-content.js';
import { collectUploadedFiles, type UploadedFileSummary } from './uploaded-files.js';
import { headerText } from '../../http/header-text.js';

/** What the previous response (a redirect) told the next page through the `sf_redirect` cookie. */
export interface RedirectInfo {
  token: string;
  route: string;
  method: string;
  controller: string;
  status_code: number;
  status_text: string;
}

export interface RequestData {
  method: string;
  url: string;
  pathInfo: string;
  requestType: 'main' | 'sub';
  route: string | undefined;
  routeParams: Record<string, string>;
  /**
   * The other request attributes (see otherAttributes): by reference until lateCollect makes them JSON-safe
   * and masks secret-named keys. Absent when there are none.
   */
  attributes?: Record<string, unknown>;
  /** `n/a` when no controller was resolved (the failed request of a 404). */
  controller: string;
  query: Record<string, string | string[]>;
  /** Symfony's POST parameters: the fields of a form body the application read, secrets masked. */
  postParameters: PostParameters;
  headers: Record<string, string | string[]>;
  /** Symfony's Request Content: the body the application read, or why it is not shown; filled in by lateCollect. */
  content?: RequestContent;
  /** The files of a multipart form the application read, without their bytes; filled in by lateCollect. */
  files?: UploadedFileSummary[] | 'unread' | 'failed' | 'tooLarge';
  /**
   * Body size in bytes: the declared Content-Length, or, for a chunked body the application read, the
   * bytes it got (filled in by lateCollect); undefined for a bodiless request or a chunked one left unread.
   */
  bodySize: number | undefined;
  cookies: Record<string, string>;
  clientIp: string;
  remoteAddress: string;
  /**
   * The connection the request came on (the reference's REMOTE_PORT, SERVER_PORT and SERVER_PROTOCOL):
   * which keep-alive connection served it, on which listening port, in which HTTP version, over TLS or not.
   * Absent from records made before they were recorded.
   */
  remotePort?: number;
  localPort?: number;
  httpVersion?: string;
  encrypted?: boolean;
  /** Trusted-proxy resolution: where scheme, host, port and client IP came from. */
  origin: RequestOrigin | undefined;
  statusCode: number;
  statusText: string;
  contentType: string | undefined;
  /** keel has no session: nothing can use one. */
  hasSession: false;
  sessionUsages: 0;
  /** The main request's `stateless` attribute (Symfony's `_stateless`). */
  statelessCheck: boolean;
  /** Token of the profile whose response this one replaced (X-Previous-Debug-Token): the error sub-request. */
  forwardToken: string | undefined;
  redirect: RedirectInfo | undefined;
}

export const REDIRECT_COOKIE = 'sf_redirect';

/** The request as it arrived and was routed, secrets masked; Symfony's RequestDataCollector. */
export class RequestCollector implements Collector<RequestData> {
  readonly name = 'request';

  collect(request: Request, response: Response): RequestData {
    const origin = safeOrigin(request);
    const cookie = request.header('cookie');
    const cookies = parseCookies(cookie === undefined ? undefined : headerText(cookie));
    const bodySize = parseContentLength(request.header('content-length'));
    return {
      method: request.method,
      url: maskTextSecrets(origin === undefined ? request.pathInfo : request.uri),
      pathInfo: request.pathInfo,
      requestType: request.type,
      route: request.attributes.route,
      // A parameter named like a secret (`/reset/{token}`) is one, as a query parameter would be.
      routeParams: maskRecord(request.attributes.routeParams ?? {}),
      controller: request.attributes.controllerName ?? 'n/a',
      attributes: otherAttributes(request.attributes),
      query: maskParameters(request.query),
      postParameters: carriesBody(request, bodySize) ? collectPostParameters(request) : undefined,
      headers: maskRecord(headerTexts(request.headers as Record<string, string | string[]>)),
      bodySize,
      // Every value: a session cookie is a credential whatever its name. The profiler's own redirect
      // memory holds none, and the reference shows it.
      cookies: Object.fromEntries(Object.entries(cookies).map(([name, value]) => [name, name === REDIRECT_COOKIE ? value : MASK])),
      clientIp: origin?.clientIps[0] ?? request.remoteAddress,
      remoteAddress: request.remoteAddress,
      remotePort: request.remotePort,
      localPort: request.localPort,
      httpVersion: request.httpVersion,
      encrypted: request.encrypted,
      origin,
      statusCode: response.status,
      statusText: response.statusText,
      contentType: response.headers.get('content-type'),
      hasSession: false,
      sessionUsages: 0,
      statelessCheck: (request.stack?.main ?? request).attributes.stateless === true,
      forwardToken: response.headers.get('x-previous-debug-token'),
      redirect: request.isMainRequest ? parseRedirectCookie(cookies[REDIRECT_COOKIE]) : undefined,
    };
  }

  // Parsing and masking a body of up to 64 KiB waits until the response has been sent.
  lateCollect(collected: RequestData, request: Request): RequestData {
    const data = collected.attributes === undefined ? collected : { ...collected, attributes: shownContext(collected.attributes) };
    if (!carriesBody(request, data.bodySize)) return data;
    const content = collectRequestContent(request);
    const files = collectUploadedFiles(request);
    // A chunked body declares no size: once read, its size is known, as the Request Content section says it.
    const bodySize = data.bodySize ?? request.bufferedBody?.length;
    return content === undefined && files === undefined && bodySize === data.bodySize ? data : { ...data, bodySize, content, files };
  }
}

// Most requests have no body: asked first, so that they pay for none of the body's sections (each of which
// would look for its content type again, on every record of a development server).
function carriesBody(request: Request, declaredSize: number | undefined): boolean {
  return (declaredSize !== undefined && declaredSize > 0) || request.bufferedBody !== undefined || request.header('transfer-encoding') !== undefined;
}

// The headers as the text their bytes spell (see headerText), as the error's message quotes them: node
// hands a UTF-8 `café` over as `cafÃ©`. Most requests are ASCII: the record is then the request's own.
function headerTexts(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  let texts: Record<string, string | string[]> | undefined;
  for (const name of Object.keys(headers)) {
    const value = headers[name]!;
    // headerText gives an ASCII value back as it is: only a changed one needs the copy.
    const text = typeof value === 'string' ? headerText(value) : value.map(headerText);
    const changed = typeof text === 'string' ? text !== value : text.some((line, i) => line !== value[i]);
    if (changed) (texts ??= { ...headers })[name] = text;
  }
  return texts ?? headers;
}

// Resolving the origin can fail on conflicting forwarded headers; Symfony records the IP as `Unknown` then.
function safeOrigin(request: Request): RequestOrigin | undefined {
  try {
    return request.origin;
  } catch {
    return undefined;
  }
}

function parseContentLength(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  return header === undefined ? (Object.create(null) as Record<string, string>) : cookiePairs(header);
}

/** Reads the redirect cookie back; anything not shaped like what the profiler wrote is ignored. */
export function parseRedirectCookie(raw: string | undefined): RedirectInfo | undefined {
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as Partial<RedirectInfo>;
    if (typeof value !== 'object' || value === null || typeof value.token !== 'string' || !isProfileToken(value.token)) return undefined;
    return {
      token: value.token,
      route: String(value.route ?? 'n/a'),
      method: String(value.method ?? ''),
      controller: String(value.controller ?? 'n/a'),
      status_code: Number(value.status_code ?? 0),
      status_text: String(value.status_text ?? ''),
    };
  } catch {
    return undefined;
  }
}

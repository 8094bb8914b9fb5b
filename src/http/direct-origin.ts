import { createOriginResolver } from '../proxy/trusted-proxies.js';
import type { OriginResolver } from './request.js';

/**
 * The origin of a request built without proxy settings (in-process requests, tests): what a server with
 * no trusted proxy and no trusted host makes of it. The connection's scheme, the Host header's host and
 * port, else the server's own name and port, and the TCP peer; a Host header that is no host (`a b`,
 * `evil.test/x?`, `a.test:abc`) is the 400 `Invalid Host` a server answers, never a URL's host.
 */
export const directOrigin: OriginResolver = createOriginResolver();

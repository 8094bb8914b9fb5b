/**
 * What every server of the comparison answers, so that the bytes on the wire are the same: the JSON body
 * of `GET /api/users/{id}`, and a 404 page with the same bytes as keel's production error page (a small HTML
 * document with an inline style).
 */

export const USER_JSON = (id: string): { id: number; login: string; name: string; admin: boolean } => ({
  id: Number(id),
  login: `user${id}`,
  name: 'Ada Lovelace',
  admin: false,
});

export const NOT_FOUND_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"/><meta name="robots" content="noindex,nofollow,noarchive"/><title>An Error Occurred: Not Found</title><style>body { background-color: #fff; color: #222; font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; margin: 0; }
.container { margin: 30px; max-width: 600px; }
h1 { color: #dc3545; font-size: 24px; }
h2 { font-size: 18px; }
</style></head><body><div class="container"><h1>Oops! An Error Occurred</h1><h2>The server returned a &quot;404 Not Found&quot;.</h2><p>Something is broken. Please let us know what you were doing when this error occurred. We will fix it as soon as possible. Sorry for any inconvenience caused.</p></div></body></html>
`;

/** The demo's route table as plain data, for the peers: method (undefined: any), path with `:param`, body. */
export interface PeerRoute {
  methods: string[] | undefined;
  path: string;
  kind: 'html' | 'json';
  body: string;
}

export const PEER_ROUTES: PeerRoute[] = [
  { methods: ['GET'], path: '/', kind: 'html', body: '<!DOCTYPE html>\n<html lang="en"><head><meta charset="UTF-8"/><title>keel demo</title></head><body><h1>keel demo</h1></body></html>\n' },
  { methods: ['POST'], path: '/login', kind: 'html', body: 'login ok\n' },
  { methods: undefined, path: '/blog/', kind: 'html', body: 'blog index\n' },
  { methods: undefined, path: '/about', kind: 'html', body: 'about\n' },
  { methods: ['PUT', 'PATCH', 'DELETE'], path: '/items/:id', kind: 'html', body: 'item\n' },
  { methods: undefined, path: '/boom', kind: 'html', body: 'boom\n' },
  { methods: undefined, path: '/limited', kind: 'html', body: 'limited ok\n' },
  { methods: undefined, path: '/limited-bare', kind: 'html', body: 'limited-bare ok\n' },
  { methods: undefined, path: '/api/limited', kind: 'json', body: '{"ok":true}' },
  { methods: ['GET'], path: '/api/status', kind: 'json', body: '{"status":"ok"}' },
];

export const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { RouteDefinition } from '../routing/route.js';
import { fileResponse } from './file-response.js';
import { NotFoundHttpException } from './http-exception.js';
import { Response } from './response.js';

export interface StaticFilesOptions {
  /** The folder served, relative to the working directory or absolute; it must exist. */
  root: string;
  /** The URL path it is served under: `/assets` serves `<root>/app.css` at `/assets/app.css`. */
  prefix: string;
  /** The route's name; `static_files` by default (two folders need two names). */
  name?: string;
  /**
   * The file served for a folder's URL ending in `/`, to which the URL without the slash is redirected;
   * `index.html` by default, false for none.
   */
  index?: string | false;
  /** Whether names starting with a dot (`.env`, `.git/`) may be served: never by default. */
  dotfiles?: boolean;
  /** Cache-Control max-age in seconds; without it files are revalidated (Last-Modified, ETag). */
  maxAge?: number;
}

/**
 * A route serving a folder's files (what the web server in front of a Symfony app does for `public/`):
 * GET and HEAD, the file's type, length, Last-Modified and ETag, 304 for conditional requests and 206
 * for a Range (see fileResponse); a folder's URL without its final slash, the prefix's own included, is
 * redirected (301) to the URL with it when the folder has an index. A `.` segment names the folder it stands
 * in, as for send (express.static): `/assets/./app.css` is `/assets/app.css`. Anything else that is not a file
 * below the folder is the usual 404: a path with `..`, a dotfile, a folder without its index, a link leading
 * out of the folder. Put it after the application's routes when its prefix is `/`: routes are tried in order.
 * @example createApp({ routes: [...routes, staticFiles({ root: 'public', prefix: '/assets' })] });
 */
export function staticFiles({ root, prefix, name = 'static_files', index = 'index.html', dotfiles = false, maxAge }: StaticFilesOptions): RouteDefinition {
  const folder = realFolder(root);
  const base = `/${prefix.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  return {
    name,
    path: `${base}/{path}`,
    // Any path below the prefix, slashes included (the router hands it over percent-decoded), or none: the
    // prefix's own URL, with or without its slash.
    requirements: { path: '.*' },
    defaults: { path: '' },
    methods: ['GET', 'HEAD'],
    controller: (request, params: Record<string, string>) => {
      // The prefix's own URL has no path: whether it ends in a slash is for the request to say.
      const path = withoutDotSegments(params['path'] ?? '') || (request.pathInfo.endsWith('/') ? '/' : '');
      if (path !== '' && (path.endsWith('/') || index === false)) return fileResponse(locate(folder, path, index, dotfiles), { maxAge });
      const found = path === '' ? folder : locate(folder, path, index, dotfiles);
      if (statSync(found, { throwIfNoEntry: false })?.isDirectory() !== true) return fileResponse(found, { maxAge });
      // A folder's URL without its slash goes to the URL with it (301), as nginx, Apache and express.static
      // answer: the index's relative links then resolve inside the folder. Only when there is an index to
      // serve there; the URL is the request's own, as for the router's trailing-slash redirects.
      locate(folder, `${path}/`, index, dotfiles);
      const query = request.queryString === '' ? '' : `?${request.queryString}`;
      return Response.redirect(request.uriForPath(`${request.pathInfo}/`) + query, 301);
    },
  };
}

// Resolved once, links included, so that every file is checked against the folder's real path. A root that
// is not there (a typo, a build not run yet) says so, and where it was looked for: node's own error named
// an lstat and not staticFiles, and a relative root is resolved from the working directory, not the module.
function realFolder(root: string): string {
  const absolute = resolve(root);
  let folder: string;
  try {
    folder = realpathSync(absolute);
  } catch (error) {
    if (!['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    throw new Error(`staticFiles: the folder "${root}" does not exist (looked for at ${absolute}).`, { cause: error });
  }
  if (!statSync(folder).isDirectory()) throw new Error(`staticFiles: "${root}" is not a folder.`);
  return folder;
}

/**
 * The path without its `.` segments, which name the folder they stand in: `./app.css` is `app.css`, `css/./`
 * is `css/`, and `css/.` is `css`, a folder's URL without its slash (redirected to `css/./`, which serves its
 * index). send, behind express.static, serves them so (it normalises the path before looking), and browsers
 * remove them before asking, so only a client sending its path verbatim (curl --path-as-is, a script) meets
 * one: serving the file, rather than redirecting to the URL without them, answers it as it expects without a
 * second round trip, and a cache's second copy of a file is only ever made for such a client. `..` segments
 * are kept for locate() to refuse, wherever they would lead: a `.` is never a dotfile, a `..` always a 404.
 */
function withoutDotSegments(path: string): string {
  return path.split('/').filter((segment) => segment !== '.').join('/');
}

function locate(folder: string, path: string, index: string | false, dotfiles: boolean): string {
  // A URL ending in a slash names a folder: without an index to serve there, nothing, never the file of
  // that name (`app.css/`), as nginx answers.
  if (path.endsWith('/') && index === false) throw notFound();
  const segments = path.split('/');
  const refused = path.includes('\0') || path.includes('\\') || segments.some((segment) => segment === '..' || (!dotfiles && segment.startsWith('.')));
  const wanted = resolve(folder, ...segments.filter((segment) => segment !== ''));
  if (refused || (wanted !== folder && !wanted.startsWith(folder + sep))) throw notFound();
  let real: string;
  try {
    real = realpathSync(path.endsWith('/') && index !== false ? join(wanted, index) : wanted);
    // A file the server may not read is refused now: once its headers are sent, the failed read can only cut
    // the connection.
    accessSync(real, constants.R_OK);
  } catch {
    throw notFound();
  }
  // A link below the folder may point anywhere: what is served is where it leads, under the same rules.
  const inside = real.slice(folder.length + 1);
  if (!real.startsWith(folder + sep) || (!dotfiles && inside.split(sep).some((segment) => segment.startsWith('.')))) throw notFound();
  return real;
}

// Said the same way whatever the reason, and without the path on disk: a probe learns nothing from it.
function notFound(): NotFoundHttpException {
  return new NotFoundHttpException('The file does not exist.', { code: 'KEEL_ERR_FILE_NOT_FOUND' });
}

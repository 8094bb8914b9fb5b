import { join } from 'node:path';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { NotFoundHttpException } from '../../http/http-exception.js';
import type { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import type { Matcher } from '../../routing/matcher.js';
import { compileRoute, type Route, type RouteDefinition } from '../../routing/route.js';
import { UrlGenerator } from '../../routing/url-generator.js';
import { UrlGenerationError } from '../../routing/routing-errors.js';
import { EXCEPTION_PAGE_CSS } from '../../errors/views/exception-page.js';
import { readSourceFile } from '../../internal/source-excerpt.js';
import { hasException } from '../collectors/exception-collector.js';
import type { RouterData } from '../collectors/router-collector.js';
import type { Profiler } from '../profiler.js';
import { isProfileToken } from '../token.js';
import { findProfilerAsset } from './profiler-assets.js';
import { parseSearchQuery, searchCriteria, searchCriteriaGiven } from './search-query.js';
import { renderPage } from './views/layout.js';
import { TokenNotFound } from './views/not-found.js';
import { ExceptionPanel } from './views/panels/exception.js';
import { RouterPanel } from './views/panels/router.js';
import { ProfilePage } from './views/profile-page.js';
import { SearchForm } from './views/search-form.js';
import { projectSourceLinker } from '../../internal/project-source.js';
import type { ListenerSources } from '../listener-sources.js';
import { SourceFile } from './views/source-file.js';
import { SearchResults } from './views/search-results.js';
import { Toolbar } from './views/toolbar.js';
import { queryParameter } from './query-parameter.js';

type ProfilerController = (request: Request) => Promise<Response> | Response;

export interface ProfilerRoutesOptions {
  /**
   * The application's routes (its RouteCollection or Matcher), read when a routing panel is shown: the
   * panel replays the match to explain a miss. Without it the panel shows the recorded outcome only.
   */
  routes?: Matcher | Iterable<Route>;
  /** Where `/_profiler/open?file=` paths start; the working directory by default. */
  projectDir?: string;
  /** An editor's link format (KEEL_EDITOR): files link to the editor instead of the source view. */
  editor?: string;
  /** Where the application's listeners are defined, looked up when the events panel is shown (see listenerSources). */
  listenerSources?: () => ListenerSources;
}

// Symfony's RedirectResponse is built with its Content-Type, so that header comes first.
function redirect(url: string): Response {
  return Response.redirect(url, 302, { 'Content-Type': 'text/html; charset=utf-8' });
}

/**
 * The profiler's pages (WebProfilerBundle's profiler.xml and wdt.xml), in matching order: register them
 * before the application's routes. Like the reference, the pages disable profiling for themselves,
 * except the exception body and an empty toolbar request, which the reference profiles too.
 */
export function createProfilerRoutes(profiler: Profiler, { routes, projectDir = process.cwd(), editor, listenerSources }: ProfilerRoutesOptions = {}): RouteDefinition[] {
  const route = (name: string, path: string, controller: ProfilerController): RouteDefinition => ({ name, path, controller });
  const params = (request: Request) => request.attributes.routeParams ?? {};
  const base = (request: Request) => request.origin.prefix;
  // Files named on a page link to the editor, or to the source view below, behind the request's prefix.
  const sourceLink = (request: Request) => projectSourceLinker(base(request), projectDir, editor);
  const disabled = (request: Request) => {
    profiler.disable(request);
    return request;
  };
  // The pages the reference serves without any Content-Security-Policy (disableCsp()): the record, search
  // bar and results, whose markup the application's policy knows nothing of; and keel's source view.
  const withoutCsp = (request: Request) => {
    request.attributes.cspDisabled = true;
    return disabled(request);
  };
  // The record a fragment route names, or the reference's 404 for a token it does not know.
  const knownProfile = async (token: string) => {
    const profile = isProfileToken(token) ? await profiler.loadProfile(token) : undefined;
    if (profile === undefined) throw new NotFoundHttpException(`Token "${token}" does not exist.`);
    return profile;
  };

  // Compiled when first needed: the routes below, for the URLs the search redirects to.
  let generator: UrlGenerator | undefined;
  const urls = () => (generator ??= new UrlGenerator(definitions.map(compileRoute)));
  // A token holding `/` cannot be a path segment: the reference's generator fails with a 500 there; keel
  // encodes it, and the record page answers that no such token exists.
  const tokenPath = (token: string) => {
    try {
      return urls().generate('_profiler', { token });
    } catch (error) {
      if (!(error instanceof UrlGenerationError)) throw error;
      return `/_profiler/${encodeURIComponent(token)}`;
    }
  };

  const definitions: RouteDefinition[] = [
    route('_wdt', '/_wdt/{token}', async (request) => {
      const token = params(request)['token'] ?? '';
      if (token === 'empty') return new Response('', 200, { 'Content-Type': 'text/html' });
      disabled(request);
      const profile = isProfileToken(token) ? await profiler.loadProfile(token, queryParameter(request.query, 'type') ?? undefined) : undefined;
      if (profile === undefined) return new Response('', 404, { 'Content-Type': 'text/html' });
      const toolbar = h(Toolbar, { profile, prefix: base(request) });
      return Response.html(renderToString(toolbar));
    }),

    route('_profiler_home', '/_profiler/', (request) => redirect(`${base(disabled(request))}/_profiler/empty/search/results?limit=10`)),

    route('_profiler_search', '/_profiler/search', async (request) => {
      disabled(request);
      const token = queryParameter(request.query, 'token') ?? '';
      // Written by the reference's URL generator rules, `0` being no token there (PHP's falsy string).
      if (token !== '' && token !== '0') return redirect(base(request) + tokenPath(token));
      const [first] = await profiler.findProfiles(parseSearchQuery(request.query));
      return redirect(base(request) + urls().generate('_profiler_search_results', { token: first?.token ?? 'empty', ...searchCriteriaGiven(request) }));
    }),

    // The search form alone, as the reference's sidebar loads it.
    route('_profiler_search_bar', '/_profiler/search_bar', (request) => {
      withoutCsp(request);
      return Response.html(renderToString(h(SearchForm, { base: base(request), criteria: searchCriteria(request) })));
    }),

    route('_profiler_assets', '/_profiler/assets/{file}', (request) => {
      disabled(request);
      const asset = findProfilerAsset(params(request)['file'] ?? '');
      if (asset === undefined) throw new NotFoundHttpException('Asset not found.');
      return new Response(asset.body, 200, { 'Content-Type': asset.type, 'Cache-Control': 'max-age=600, private' });
    }),

    route('_profiler_search_results', '/_profiler/{token}/search/results', async (request) => {
      withoutCsp(request);
      const { results, unavailable } = await profiler.searchProfiles(parseSearchQuery(request.query));
      return Response.html(renderPage(h(SearchResults, { results, unavailable, base: base(request), criteria: searchCriteria(request) })));
    }),

    // Symfony's openAction: a project source file by its path relative to the project directory. No path
    // segment may start with a dot (no `..`, no `.env`), and only what the debug page may excerpt is shown.
    // Served without the application's policy too: the reference gives its inline styles the policy's nonce,
    // where keel's page links its stylesheet, which a policy refusing 'self' would block.
    route('_profiler_open_file', '/_profiler/open', (request) => {
      withoutCsp(request);
      const file = queryParameter(request.query, 'file') ?? '';
      const lines = /(^|[/\\])\./.test(file) || file === '' ? undefined : readSourceFile(join(projectDir, file), { roots: [projectDir] });
      if (lines === undefined) throw new NotFoundHttpException(`The file "${file}" cannot be opened.`);
      const line = Number.parseInt(queryParameter(request.query, 'line') ?? '', 10);
      return Response.html(renderPage(h(SourceFile, { file, lines, line: Number.isInteger(line) ? line : 0, base: base(request) })));
    }),

    route('_profiler', '/_profiler/{token}', async (request) => {
      withoutCsp(request);
      const token = params(request)['token'] ?? '';
      const profile = await profiler.loadProfile(token, queryParameter(request.query, 'type') ?? undefined);
      if (profile === undefined) return Response.html(renderPage(h(TokenNotFound, { token, base: base(request) })));
      const panel = queryParameter(request.query, 'panel') ?? (hasException(profile.collectors['exception']) ? 'exception' : (queryParameter(request.query, 'type') ?? 'request'));
      if (!Object.hasOwn(profile.collectors, panel)) {
        throw new NotFoundHttpException(`Panel "${panel}" is not available for token "${profile.token}".`);
      }
      const sources = panel === 'events' ? listenerSources?.() : undefined;
      return Response.html(renderPage(h(ProfilePage, { profile, panel, base: base(request), query: request.query, routes, listenerSources: sources, sourceLink: sourceLink(request) })));
    }),

    // The routing panel alone (Symfony's RouterController::panelAction), unprofiled.
    route('_profiler_router', '/_profiler/{token}/router', async (request) => {
      disabled(request);
      const profile = await knownProfile(params(request)['token'] ?? '');
      const data = profile.collectors['router'];
      if (data === undefined) return Response.html('');
      return Response.html(renderToString(h(RouterPanel, { profile, data: data as RouterData, base: base(request), query: request.query, routes })));
    }),

    // Symfony's ExceptionPanelController::body: profiled, 404 for an unknown token, empty without an error.
    route('_profiler_exception', '/_profiler/{token}/exception', async (request) => {
      const profile = await knownProfile(params(request)['token'] ?? '');
      const data = profile.collectors['exception'];
      if (!hasException(data)) return new Response('', 200, { 'Content-Type': 'text/html' });
      // A fragment, as the reference's: no page around it, so no toolbar is injected into it.
      const panel = h(ExceptionPanel, { profile, data, base: base(request), query: request.query, routes, sourceLink: sourceLink(request) });
      const stylesheet = h('link', { rel: 'stylesheet', href: `${base(request)}/_profiler/assets/profiler.css` });
      return new Response(renderToString(h('div', { id: 'panel' }, stylesheet, panel)), 200, { 'Content-Type': 'text/html' });
    }),

    // The exception view's stylesheet (Symfony's ExceptionPanelController::stylesheet), profiled as there.
    route('_profiler_exception_css', '/_profiler/{token}/exception.css', () => new Response(EXCEPTION_PAGE_CSS, 200, { 'Content-Type': 'text/css' })),
  ];
  return definitions;
}

/** @jsxRuntime automatic @jsxImportSource preact */
import type { Matcher } from '../../../routing/matcher.js';
import type { Route } from '../../../routing/route.js';
import type { SourceLinker } from '../../../internal/project-source.js';
import type { ListenerSources } from '../../listener-sources.js';
import type { Profile } from '../../profile.js';
import { DataTable } from './data-table.js';
import { Layout } from './layout.js';
import { menuBadge } from './panels/menu-badge.js';
import { panelLabel, panelView } from './panels/panels.js';
import { panelUrl } from './panels/panel.js';

export interface ProfilePageProps {
  profile: Profile;
  /** Name of the collector whose panel is shown; the caller has checked the profile has it. */
  panel: string;
  base: string;
  query: URLSearchParams;
  routes: Matcher | Iterable<Route> | undefined;
  listenerSources?: ListenerSources;
  sourceLink?: SourceLinker;
}

/** One record: its summary, a menu with a panel per collector, and the selected panel. */
export function ProfilePage({ profile, panel, base, query, routes, listenerSources, sourceLink }: ProfilePageProps) {
  const status = profile.statusCode >= 400 ? 'status-error' : profile.statusCode >= 300 ? 'status-warning' : 'status-success';
  const View = panelView(panel);
  const data = profile.collectors[panel];
  // A collector that threw recorded its error instead of its data: no view can show that.
  const failed = failure(data);
  const link = (token: string) => <a href={`${base}/_profiler/${token}`}>{token}</a>;
  return (
    <Layout base={base} title={`${profile.method} ${profile.url} (${profile.token}) · Profiler`}>
      <div id="summary" class={status}>
        <h2>
          {profile.statusCode >= 400 ? `Error ${profile.statusCode}` : profile.statusCode} {profile.method} {profile.url}
        </h2>
        <p>
          IP <a href={`${base}/_profiler/search?ip=${encodeURIComponent(profile.ip)}&limit=10`}>{profile.ip}</a> · Profiled on{' '}
          {new Date(profile.time * 1000).toUTCString()} · Token <span class="token">{profile.token}</span>
          {profile.parent !== undefined && <> · Parent request {link(profile.parent)}</>}
          {profile.children.length > 0 && <> · Sub-requests {profile.children.map(link)}</>}
        </p>
      </div>
      <div id="content">
        {/* Named: the logs panel adds navigations of its own (by channel, by level) beside it. */}
        <nav id="menu" aria-label="Panels">
          {Object.keys(profile.collectors).map((name) => {
            const badge = failure(profile.collectors[name]) === undefined ? menuBadge(name, profile.collectors[name]) : undefined;
            return (
              <a class={name === panel ? 'selected' : undefined} aria-current={name === panel ? 'page' : undefined} data-panel-link={name} href={panelUrl(base, profile.token, name)}>
                {panelLabel(name)}
                {badge !== undefined && <span class={`menu-badge badge-${badge.level}`}>{badge.count}</span>}
              </a>
            );
          })}
        </nav>
        <div id="panel" data-panel={panel}>
          {failed !== undefined ? (
            <div class="empty">The "{panel}" collector failed for this request: {failed}</div>
          ) : View === undefined ? (
            <DataTable rows={(data ?? {}) as Record<string, unknown>} />
          ) : (
            <View profile={profile} data={data as never} base={base} query={query} routes={routes} listenerSources={listenerSources} sourceLink={sourceLink} />
          )}
        </div>
      </div>
    </Layout>
  );
}

function failure(data: unknown): string | undefined {
  const error = (data as { collectorError?: unknown } | undefined)?.collectorError;
  return typeof error === 'string' ? error : undefined;
}

import type { Profile } from '../../profile.js';
import { DataTable } from './data-table.js';
import { Layout } from './layout.js';
import { PANELS } from './panels/panels.js';

export interface ProfilePageProps {
  profile: Profile;
  /** Name of the collector whose panel is shown; the caller has checked the profile has it. */
  panel: string;
  base: string;
}

/** One record: its summary, a menu with a panel per collector, and the selected panel. */
export function ProfilePage({ profile, panel, base }: ProfilePageProps) {
  const status = profile.statusCode >= 400 ? 'status-error' : profile.statusCode >= 300 ? 'status-warning' : 'status-success';
  const View = PANELS[panel];
  const data = profile.collectors[panel];
  return (
    <Layout base={base}>
      <div id="summary" class={status}>
        <h2>
          {profile.statusCode >= 400 ? `Error ${profile.statusCode}` : profile.statusCode} {profile.method} {profile.url}
        </h2>
        <p>
          IP <a href={`${base}/_profiler/search?ip=${encodeURIComponent(profile.ip)}&limit=10`}>{profile.ip}</a> · Profiled on{' '}
          {new Date(profile.time * 1000).toUTCString()} · Token <span class="token">{profile.token}</span>
        </p>
      </div>
      <div id="content">
        <nav id="menu">
          {Object.keys(profile.collectors).map((name) => (
            <a class={name === panel ? 'selected' : undefined} href={`${base}/_profiler/${profile.token}?panel=${encodeURIComponent(name)}&type=request`}>
              {name}
            </a>
          ))}
        </nav>
        <div id="panel" data-panel={panel}>
          {View === undefined ? <DataTable rows={(data ?? {}) as Record<string, unknown>} /> : <View profile={profile} data={data as never} base={base} />}
        </div>
      </div>
    </Layout>
  );
}

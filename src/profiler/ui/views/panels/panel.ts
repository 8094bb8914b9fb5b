import type { VNode } from 'preact';
import type { Matcher } from '../../../../routing/matcher.js';
import type { Route } from '../../../../routing/route.js';
import type { SourceLinker } from '../../../../internal/project-source.js';
import type { ListenerSources } from '../../../listener-sources.js';
import type { Profile } from '../../../profile.js';

export interface PanelProps<T = unknown> {
  profile: Profile;
  data: T;
  /** Path prefix for links ('' without a proxy prefix). */
  base: string;
  /** The page's query string: panels with filters (logs) read theirs from it. */
  query: URLSearchParams;
  /** The application's routes, for panels that replay routing; absent when the profiler was not given them. */
  routes: Matcher | Iterable<Route> | undefined;
  /** Where the application's listeners are defined, given to the events panel when known. */
  listenerSources?: ListenerSources;
  /** Where a file named on a panel links (the exception's frames, the listeners' definitions): see SourceLinker. */
  sourceLink?: SourceLinker;
}

export type Panel = (props: PanelProps<never>) => VNode;

/** The URL of a panel of a record, with extra query parameters (filters). */
export function panelUrl(base: string, token: string, panel: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ panel, type: 'request', ...extra });
  return `${base}/_profiler/${token}?${query}`;
}

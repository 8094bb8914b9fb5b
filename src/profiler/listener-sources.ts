import { locateFunctions } from '../internal/function-locations.js';
import { projectPath } from '../internal/project-source.js';
import type { EventDispatcher } from '../kernel/event-dispatcher.js';

/** Where a listener is defined, as the events panel shows it. */
export interface ListenerSource {
  /** As shown: relative to the project directory when the file is inside it, else as found. */
  file: string;
  /** As found, for links (see SourceLinker). */
  path: string;
  line: number;
}

/** By `<event> <listener name>`, as the panel lists listeners. */
export type ListenerSources = ReadonlyMap<string, ListenerSource>;

const located = new WeakMap<EventDispatcher, { version: number; projectDir: string; sources: ListenerSources }>();

/**
 * Where each listener of the dispatcher is defined (Symfony's events panel links each listener to its
 * class's file). Looked up when the events panel is shown, not when requests are recorded: the records stay
 * as they are, and the inspector's few tens of milliseconds are spent once per set of listeners (the
 * dispatcher's version), only by whoever opens the panel. A record made by another instance of the same
 * application names the same listeners.
 */
export function listenerSources(dispatcher: EventDispatcher, projectDir: string): ListenerSources {
  const known = located.get(dispatcher);
  if (known?.version === dispatcher.version && known.projectDir === projectDir) return known.sources;
  const listeners = dispatcher.listenerFunctions();
  const locations = locateFunctions(listeners.map(({ listener }) => listener));
  const sources = new Map<string, ListenerSource>();
  listeners.forEach(({ event, name }, i) => {
    const location = locations[i];
    if (location === undefined) return;
    const path = projectPath(projectDir, location.file);
    sources.set(`${event} ${name}`, { file: path ?? location.file, path: location.file, line: location.line });
  });
  located.set(dispatcher, { version: dispatcher.version, projectDir, sources });
  return sources;
}

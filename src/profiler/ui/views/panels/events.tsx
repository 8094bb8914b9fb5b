/** @jsxRuntime automatic @jsxImportSource preact */
import type { EventsData, RegisteredEvent } from '../../../collectors/events-collector.js';
import type { TimeData, TimelineEntry } from '../../../collectors/time-collector.js';
import type { SourceLinker } from '../../../../internal/project-source.js';
import type { ListenerSource } from '../../../listener-sources.js';
import type { PanelProps } from './panel.js';

// The kernel's events in the order a request meets them; an event keel does not know goes last.
const KERNEL_ORDER = ['request', 'controller', 'controllerArguments', 'view', 'response', 'finishRequest', 'exception', 'terminate'];

interface Calls {
  count: number;
  duration: number;
}

/**
 * Symfony's event dispatcher panel: for each kernel event, the listeners the request called (how often,
 * for how long, from the performance timeline) and those it did not (an event that was not dispatched, or
 * one whose propagation a listener stopped), each with its priority, in the order the dispatcher calls them.
 */
export function EventsPanel({ profile, data, listenerSources, sourceLink }: PanelProps<EventsData>) {
  const time = profile.collectors['time'] as Partial<TimeData> | undefined;
  const traced = Array.isArray(time?.events);
  const calls = callsByListener(traced ? time!.events! : []);
  const events = [...data.registered].sort((a, b) => rank(a.event) - rank(b.event));
  const rows = events.flatMap(({ event, listeners }: RegisteredEvent) =>
    listeners.map((listener) => ({ event, ...listener, calls: calls.get(`${event} ${listener.name}`), source: listenerSources?.get(`${event} ${listener.name}`) })),
  );
  const called = rows.filter((row) => row.calls !== undefined);
  const notCalled = rows.filter((row) => row.calls === undefined);
  return (
    <div>
      <h2>Event Dispatcher</h2>
      <div class="metrics">
        <div class="metric">
          <span class="value">{called.length}</span>
          <span class="label">Called listeners</span>
        </div>
        <div class="metric">
          <span class="value">{notCalled.length}</span>
          <span class="label">Not called listeners</span>
        </div>
      </div>
      {!traced && <p class="empty">The performance timeline of this request is missing: which listeners ran is unknown.</p>}
      <h3>Called Listeners</h3>
      <ListenerTable rows={called} empty="No listener was called." withCalls sourceLink={sourceLink} />
      <h3>Not Called Listeners</h3>
      <ListenerTable rows={notCalled} empty="Every listener was called." withCalls={false} sourceLink={sourceLink} />
      {notCalled.some((row) => row.event === 'terminate') && (
        <p class="empty">The record is written while terminate listeners still run: the profiler's own, and any after it, show here even when they ran.</p>
      )}
    </div>
  );
}

interface ListenerRow {
  event: string;
  priority: number;
  name: string;
  calls: Calls | undefined;
  source: ListenerSource | undefined;
}

/** One table for both lists: the called ones add how often they ran and for how long. */
function ListenerTable({ rows, empty, withCalls, sourceLink }: { rows: readonly ListenerRow[]; empty: string; withCalls: boolean; sourceLink: SourceLinker | undefined }) {
  if (rows.length === 0) return <p class="empty">{empty}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>Event</th>
          <th>Priority</th>
          <th>Listener</th>
          {withCalls && <th>Calls</th>}
          {withCalls && <th>Duration (ms)</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr>
            <td>{row.event}</td>
            <td>{row.priority}</td>
            <td>
              {row.name}
              {row.source !== undefined && <SourceLink source={row.source} href={sourceLink?.(row.source.path, row.source.line)} />}
            </td>
            {withCalls && <td>{row.calls?.count ?? 0}</td>}
            {withCalls && <td>{(row.calls?.duration ?? 0).toFixed(3)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Where the listener is defined, as the reference links each listener to its class's file: to the editor
// or the profiler's source view (see SourceLinker), as plain text where neither opens it.
function SourceLink({ source, href }: { source: ListenerSource; href: string | undefined }) {
  const text = `${source.file}:${source.line}`;
  return <div class="listener-source">{href === undefined ? text : <a href={href}>{text}</a>}</div>;
}

function rank(event: string): number {
  const index = KERNEL_ORDER.indexOf(event);
  return index === -1 ? KERNEL_ORDER.length : index;
}

// Keyed by event and listener name: the timeline names listeners as the dispatcher lists them.
function callsByListener(timeline: readonly TimelineEntry[]): Map<string, Calls> {
  const calls = new Map<string, Calls>();
  for (const { event, listener, start, end } of timeline) {
    const key = `${event} ${listener}`;
    const entry = calls.get(key) ?? { count: 0, duration: 0 };
    entry.count++;
    entry.duration += end - start;
    calls.set(key, entry);
  }
  return calls;
}

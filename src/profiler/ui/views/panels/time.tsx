/** @jsxRuntime automatic @jsxImportSource preact */
import type { MemoryData } from '../../../collectors/memory-collector.js';
import type { SubRequestSpan, TimeData, TimelineEntry } from '../../../collectors/time-collector.js';
import { CONTROLLER_CALL } from '../../../../kernel/traced-call.js';
import { panelUrl, type PanelProps } from './panel.js';

const MIB = 1024 * 1024;

/**
 * Total time, peak memory, the controller's own time and the timeline of every kernel listener that ran,
 * with the controller's call in its place among them, drawn as bars on the request's time axis (widths in
 * percent of the whole request; nothing scripted). Each sub-request (the error page's) is a row of its own
 * where it started, linked to its record, which has its own timeline.
 */
export function TimePanel({ profile, data, base }: PanelProps<TimeData>) {
  const memory = profile.collectors['memory'] as MemoryData | undefined;
  // A loop, not Math.max(...ends): a request with many sub-requests has more events than a call takes arguments.
  const span = data.events.reduce((latest, entry) => Math.max(latest, entry.end), Math.max(data.duration, 0.001));
  const calls = data.events.filter(isControllerCall);
  const listenerCalls = data.events.length - calls.length;
  const subRequests = data.subRequests ?? [];
  return (
    <div>
      <h2>Performance</h2>
      <div class="metrics">
        <div class="metric">
          <span class="value">{data.duration.toFixed(1)} ms</span>
          <span class="label">Total time</span>
        </div>
        {memory !== undefined && (
          <div class="metric">
            <span class="value">{((memory.peakRss ?? memory.rss) / MIB).toFixed(1)} MiB</span>
            <span class="label">Peak memory (process)</span>
          </div>
        )}
        {calls.length > 0 && (
          <div class="metric">
            <span class="value">{calls.reduce((total, entry) => total + entry.end - entry.start, 0).toFixed(1)} ms</span>
            <span class="label">Controller</span>
          </div>
        )}
        <div class="metric">
          <span class="value">{listenerCalls}</span>
          <span class="label">Listener calls</span>
        </div>
        {subRequests.length > 0 && (
          <div class="metric">
            <span class="value">{subRequests.length}</span>
            <span class="label">{subRequests.length === 1 ? 'Sub-request' : 'Sub-requests'}</span>
          </div>
        )}
        {subRequests.length > 0 && (
          <div class="metric">
            <span class="value">{subRequests.reduce((total, span) => total + span.end - span.start, 0).toFixed(1)} ms</span>
            <span class="label">Sub-request time</span>
          </div>
        )}
      </div>
      <h3>Execution timeline</h3>
      {data.events.length === 0 ? (
        <p class="empty">No listener was traced.</p>
      ) : (
        <table class="timeline">
          <thead>
            <tr>
              <th>Event</th>
              <th>Listener</th>
              <th>Start (ms)</th>
              <th>Duration (ms)</th>
              <th class="timeline-axis">0 – {span.toFixed(1)} ms</th>
            </tr>
          </thead>
          <tbody>
            {rowsOf(data.events, subRequests).map((row) =>
              'event' in row ? (
                <tr class={isControllerCall(row) ? 'timeline-controller-call' : undefined}>
                  <td>{isControllerCall(row) ? 'controller call' : row.event}</td>
                  <td>{row.listener}</td>
                  <TimeCells entry={row} span={span} kind={row.event} />
                </tr>
              ) : (
                <tr class="timeline-sub-request">
                  <td>sub-request</td>
                  <td>{profile.children[row.index] === undefined ? 'not recorded' : <a href={panelUrl(base, profile.children[row.index]!, 'time')}>{profile.children[row.index]}</a>}</td>
                  <TimeCells entry={row} span={span} kind="sub-request" />
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}

function TimeCells({ entry, span, kind }: { entry: { start: number; end: number }; span: number; kind: string }) {
  return (
    <>
      <td>{entry.start.toFixed(2)}</td>
      <td>{(entry.end - entry.start).toFixed(2)}</td>
      <td class="timeline-axis">
        <span
          class={`timeline-bar timeline-${kind}`}
          style={{ marginLeft: `${percent(entry.start, span).toFixed(2)}%`, width: `${Math.max(percent(entry.end - entry.start, span), 0.5).toFixed(2)}%` }}
        />
      </td>
    </>
  );
}

type SubRequestRow = SubRequestSpan & { index: number };

// Listener calls are listed as they ended; a sub-request goes after the last call that started before it
// (the error listener that made it), so it reads as part of that call.
function rowsOf(events: readonly TimelineEntry[], subRequests: readonly SubRequestSpan[]): (TimelineEntry | SubRequestRow)[] {
  const rows: (TimelineEntry | SubRequestRow)[] = [...events];
  subRequests.forEach((sub, index) => {
    let at = rows.length;
    while (at > 0 && rows[at - 1]!.start > sub.start) at--;
    rows.splice(at, 0, { ...sub, index });
  });
  return rows;
}

// The controller's own call, which the kernel traces among the listeners (see tracedCall).
function isControllerCall(entry: TimelineEntry): boolean {
  return entry.event === CONTROLLER_CALL;
}

function percent(value: number, span: number): number {
  return Math.min(100, Math.max(0, (value / span) * 100));
}

/** @jsxRuntime automatic @jsxImportSource preact */
import { traceRoutes, type RoutingTrace, type TraceOutcome } from '../../../../routing/trace.js';
import type { RouterData } from '../../../collectors/router-collector.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

/**
 * The matched route, and the matcher replayed on the recorded context (Symfony's TraceableUrlMatcher):
 * for every pass, the trailing-slash retry included, what each route said and why it did not match.
 * Traces are computed when the panel is shown, against the routes as they are defined now.
 */
export function RouterPanel({ data, routes }: PanelProps<RouterData>) {
  // A request the router never saw is not replayed: the replay would explain a match that was never made
  // (a 400 for a refused method override read "No route matched." above "Matched route …").
  const trace = routes === undefined || data.routed === false ? undefined : safeTrace(routes, data.context);
  return (
    <div>
      <h2>Routing</h2>
      <DataTable
        rows={{
          'Matched route': data.route ?? 'n/a',
          'Route parameters': data.routeParams,
          ...(data.redirect === undefined ? {} : { 'Redirected to': data.redirect.url }),
        }}
      />
      {data.route === undefined && data.routed !== false && <p class="empty">No route matched.</p>}
      <h3>Match context</h3>
      <DataTable rows={data.context} />
      {data.routed === false ? (
        <p class="empty">The router did not run for this request: it was answered before routing (a refused host or method override), or came with its controller already chosen (an error sub-request).</p>
      ) : trace === undefined ? (
        <p class="empty">The route table is not available to the profiler.</p>
      ) : (
        <>
          <p class="routing-outcome">{describeOutcome(trace.outcome)}</p>
          {trace.attempts.map((attempt, index) => (
            <section class="routing-attempt">
              <h3>
                {index === 0 ? 'Route Matching Logs' : 'Retry'} for {attempt.scheme}://…{attempt.path}
              </h3>
              <table class="routing-trace">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Route name</th>
                    <th>Path</th>
                    <th>Log</th>
                  </tr>
                </thead>
                <tbody>
                  {attempt.routes.map((route, position) => (
                    <tr class={`trace-${route.level}`}>
                      <td>{position + 1}</td>
                      <td>{route.name}</td>
                      <td>{route.path}</td>
                      <td>{route.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

function safeTrace(routes: NonNullable<PanelProps['routes']>, context: RouterData['context']): RoutingTrace | undefined {
  try {
    return traceRoutes(routes, context);
  } catch {
    return undefined;
  }
}

function describeOutcome(outcome: TraceOutcome): string {
  switch (outcome.kind) {
    case 'match':
      return `Matched route "${outcome.route}".`;
    case 'redirect':
      return `Route "${outcome.route}" matches ${outcome.path}${outcome.scheme === undefined ? '' : ` over ${outcome.scheme}`}: the request is redirected.`;
    case 'methodNotAllowed':
      return `The path matches, but not the method: allowed ${outcome.allow.join(', ')}.`;
    case 'notFound':
      return outcome.message;
  }
}

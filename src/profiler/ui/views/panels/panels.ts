import { ConfigPanel } from './config.js';
import { EventsPanel } from './events.js';
import { ExceptionPanel } from './exception.js';
import { LoggerPanel } from './logger.js';
import { MemoryPanel } from './memory.js';
import type { Panel } from './panel.js';
import { RateLimiterPanel } from './rate_limiter.js';
import { RequestPanel } from './request.js';
import { ResponsePanel } from './response.js';
import { RouterPanel } from './router.js';
import { TimePanel } from './time.js';

/** Collector name → its view. A collector without a view here is shown as raw data. */
export const PANELS: Record<string, Panel> = {
  request: RequestPanel as Panel,
  response: ResponsePanel as Panel,
  time: TimePanel as Panel,
  memory: MemoryPanel as Panel,
  exception: ExceptionPanel as Panel,
  logger: LoggerPanel as Panel,
  events: EventsPanel as Panel,
  router: RouterPanel as Panel,
  rate_limiter: RateLimiterPanel as Panel,
  config: ConfigPanel as Panel,
};

/** Menu labels, Symfony's wording; a collector without one is listed by its name. */
export const PANEL_LABELS: Record<string, string> = {
  request: 'Request / Response',
  response: 'Response',
  time: 'Performance',
  memory: 'Memory',
  exception: 'Exception',
  logger: 'Logs',
  events: 'Events',
  router: 'Routing',
  rate_limiter: 'Rate Limiter',
  config: 'Configuration',
};

// Own names only: an application's collector named `toString` or `constructor` has no view of keel's, and
// is listed by its name, not by the function an object inherits under it.
/** The view of a collector's panel, undefined for one shown as raw data. */
export function panelView(name: string): Panel | undefined {
  return Object.hasOwn(PANELS, name) ? PANELS[name] : undefined;
}

/** The menu label of a collector's panel: Symfony's wording, else the collector's name. */
export function panelLabel(name: string): string {
  return (Object.hasOwn(PANEL_LABELS, name) ? PANEL_LABELS[name] : undefined) ?? name;
}

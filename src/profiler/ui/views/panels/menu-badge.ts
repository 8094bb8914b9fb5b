import { countProblemLogs } from '../../../../errors/views/logs-table.js';
import type { ExceptionData } from '../../../collectors/exception-collector.js';
import type { LoggerData } from '../../../collectors/logger-collector.js';

export interface MenuBadge {
  count: number;
  /** How the count is coloured: an error, a warning, or plain (a number of records). */
  level: 'error' | 'warning' | 'plain';
}

/**
 * The number a panel's menu entry carries, as in the reference's profiler: the errors of the exception
 * panel, the error (else warning, else all) log records of the logs panel, so that what went wrong shows
 * before the panel is opened. Undefined for a panel with nothing to count.
 */
export function menuBadge(panel: string, data: unknown): MenuBadge | undefined {
  if (panel === 'exception') {
    const count = (data as Partial<ExceptionData> | undefined)?.chain?.length ?? 0;
    return count > 0 ? { count, level: 'error' } : undefined;
  }
  if (panel === 'logger') {
    const logs = (data as Partial<LoggerData> | undefined)?.logs ?? [];
    const problems = countProblemLogs(logs);
    if (problems > 0) return { count: problems, level: 'error' };
    const warnings = countWarningLogs(logs);
    if (warnings > 0) return { count: warnings, level: 'warning' };
    return logs.length > 0 ? { count: logs.length, level: 'plain' } : undefined;
  }
  return undefined;
}

export function countWarningLogs(logs: readonly { level: string }[]): number {
  return logs.filter((record) => record.level === 'warning').length;
}

import { html } from '../../internal/html-template.js';
import { LOG_LEVELS, type LogLevel, type LogRecord } from '../../logging/log-record.js';

/**
 * The thresholds offered, as the profiler's logs panel offers them: all, then each level and the ones
 * above it. Critical, alert and emergency go with error, as errors. The stylesheet holds the rule of each.
 */
const LEVEL_THRESHOLDS = ['debug', 'info', 'notice', 'warning', 'error'] as const satisfies readonly LogLevel[];

/** The distinct channels of the records, sorted: a row's channel class is its channel's index here. */
export function channelsOf(logs: readonly LogRecord[]): string[] {
  return [...new Set(logs.map((record) => record.channel))].sort();
}

/** The classes the filters select a row by: its level, and its channel's index among `channels`. */
export function filterClasses(record: LogRecord, channels: readonly string[]): string {
  return channels.length > 1 ? `log-${record.level} log-channel-${channels.indexOf(record.channel)}` : `log-${record.level}`;
}

/**
 * The debug page's log filters: Symfony's level and channel filters, without its script. Each option is a
 * radio button in its label; the stylesheet reads which one is checked (`.log-list:has(#log-level-warning:checked)
 * tr.log-info` hides the row), as the page's tabs switch, so they work under a strict CSP and with scripts
 * off. Each option says how many records it shows. Offered for two records or more; the channel filter when
 * they come from two channels or more.
 */
export function LogFilters({ logs, channels }: { logs: readonly LogRecord[]; channels: readonly string[] }) {
  if (logs.length < 2) return null;
  const atOrAbove = (threshold: LogLevel) => logs.filter((record) => LOG_LEVELS.indexOf(record.level) >= LOG_LEVELS.indexOf(threshold)).length;
  const inChannel = (channel: string) => logs.filter((record) => record.channel === channel).length;
  const levels = LEVEL_THRESHOLDS.map((level) => option('log-level', `log-level-${level}`, level === 'debug' ? 'All' : `${capitalised(level)}+`, atOrAbove(level), level === 'debug'));
  const channelOptions =
    channels.length > 1 && html`
      <div class="log-filter" role="radiogroup" aria-label="Channel">
        <span class="log-filter-name">Channel</span>
        ${option('log-channel', 'log-channel-all', 'All', logs.length, true)}
        ${channels.map((channel, index) => option('log-channel', `log-channel-${index}`, channel, inChannel(channel), false))}
      </div>
    `;
  return html`
    <div class="log-filters">
      <div class="log-filter" role="radiogroup" aria-label="Minimum level"><span class="log-filter-name">Level</span>${levels}</div>
      ${channelOptions}
    </div>
  `;
}

/**
 * The rules of a page's channel options, one per channel by its index (names never reach the CSS): the
 * rows of the other channels hidden while one is checked. Empty when the page offers no channel filter.
 */
export function channelFilterRules(channels: readonly string[]): string {
  if (channels.length < 2) return '';
  const selectors = channels.map((_, index) => `.log-list:has(#log-channel-${index}:checked) tbody tr:not(.log-channel-${index})`);
  return `${selectors.join(',\n')} { display: none; }`;
}

function option(name: string, id: string, label: string, count: number, checked: boolean) {
  const input = checked ? html`<input type="radio" name="${name}" id="${id}" checked/>` : html`<input type="radio" name="${name}" id="${id}"/>`;
  return html`<label title="${count === 1 ? 'Shows 1 record' : `Shows ${count} records`}">${input}${label} <span class="badge">${count}</span></label>`;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

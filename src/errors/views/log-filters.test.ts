import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import type { LogRecord } from '../../logging/log-record.js';
import { channelFilterRules, channelsOf, filterClasses, LogFilters } from './log-filters.js';

// What the filters render as, nothing when they are left out.
const render = (logs: readonly LogRecord[], channels: readonly string[]) => {
  const filters = LogFilters({ logs, channels });
  return filters === null ? '' : renderToString(filters);
};

const record = (level: LogRecord['level'], channel: string): LogRecord => ({ time: 0, level, channel, message: 'm', context: {} });

describe('the debug page log filters', () => {
  it('offers nothing for a single record', () => {
    const logs = [record('error', 'request')];
    assert.equal(render(logs, channelsOf(logs)), '');
  });

  it('offers the level thresholds alone when every record is of one channel, each counting what it shows', () => {
    const logs = [record('info', 'request'), record('critical', 'request')];
    const markup = render(logs, channelsOf(logs));
    assert.match(markup, /<input type="radio" name="log-level" id="log-level-debug" checked\/>All <span class="badge">2<\/span>/);
    assert.match(markup, /id="log-level-error"\/>Error\+ <span class="badge">1<\/span>/);
    assert.doesNotMatch(markup, /log-channel/);
    assert.equal(filterClasses(logs[0]!, channelsOf(logs)), 'log-info');
    assert.equal(channelFilterRules(channelsOf(logs)), '');
  });

  it('names channels in the markup only, escaped, and by index in the rows and the rules', () => {
    const hostile = '</style><script>alert(1)</script>';
    const logs = [record('info', 'request'), record('warning', hostile), record('debug', 'app')];
    const channels = channelsOf(logs);
    assert.deepEqual(channels, [hostile, 'app', 'request']);
    const markup = render(logs, channels);
    assert.ok(markup.includes('&lt;/style>&lt;script>alert(1)&lt;/script>'), markup);
    assert.ok(!markup.includes('<script>'));
    assert.equal(filterClasses(logs[1]!, channels), 'log-warning log-channel-0');
    const rules = channelFilterRules(channels);
    assert.equal(
      rules,
      [0, 1, 2].map((index) => `.log-list:has(#log-channel-${index}:checked) tbody tr:not(.log-channel-${index})`).join(',\n') + ' { display: none; }',
    );
  });
});

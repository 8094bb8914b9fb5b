import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'preact-render-to-string';
import type { LogRecord } from '../../../logging/log-record.js';
import type { Profile } from '../../profile.js';
import { Toolbar } from './toolbar.js';

function toolbarWith(levels: LogRecord['level'][]): string {
  const logs = levels.map((level): LogRecord => ({ time: 0, level, channel: 'app', message: 'm', context: {} }));
  const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: 'http://localhost/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: { logger: { logs } } };
  return renderToString(Toolbar({ profile, prefix: '' }));
}

describe('Toolbar', () => {
  it('counts the warnings of the logs item in the singular and the plural', () => {
    assert.match(toolbarWith(['info', 'warning']), /title="Log messages">2 logs \(1 warning\)</);
    assert.match(toolbarWith(['warning', 'warning']), /title="Log messages">2 logs \(2 warnings\)</);
    assert.match(toolbarWith(['warning', 'error']), /title="Log messages">2 logs \(1 error\)</);
  });
});

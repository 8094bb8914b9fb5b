import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../../http/request.js';
import { MAX_REQUEST_LOGS, RequestStack } from '../../kernel/request-stack.js';
import { LoggerCollector } from './logger-collector.js';

describe('LoggerCollector', () => {
  it('gives the records a request kept and the number of those it logged past them', () => {
    const request = new Request({ method: 'GET', target: '/events' });
    request.stack = new RequestStack();
    request.stack.push(request);
    for (let i = 0; i < MAX_REQUEST_LOGS + 2_500; i++) request.stack.addLog({ time: 0, level: 'info', channel: 'app', message: `tick ${i}`, context: {}, requestId: request.id });
    const data = new LoggerCollector().lateCollect({ logs: [] }, request);
    assert.equal(data.logs.length, MAX_REQUEST_LOGS);
    assert.equal(data.dropped, 2_500);
    const quiet = new Request({ method: 'GET', target: '/' });
    quiet.stack = new RequestStack();
    quiet.stack.push(quiet);
    assert.equal('dropped' in new LoggerCollector().lateCollect({ logs: [] }, quiet), false);
  });
});

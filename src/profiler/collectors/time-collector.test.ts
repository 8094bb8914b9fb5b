import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRACE_IN_EXCEPTION_PANEL } from '../../logging/shown-context.js';
import { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { Kernel } from '../../kernel/kernel.js';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { TimePanel } from '../ui/views/panels/time.js';
import type { Profile } from '../profile.js';
import { LoggerCollector } from './logger-collector.js';
import { TimeCollector } from './time-collector.js';

describe('TimeCollector', () => {
  it("builds each request's listener timeline from the dispatcher's tracer", async () => {
    const kernel = new Kernel();
    const collector = new TimeCollector({ now: () => request.startedAt + 12.5 });
    kernel.dispatcher.tracer = collector.tracer;
    kernel.dispatcher.on('request', function routeIt(event) {
      event.request.attributes.controller = () => Response.text('ok');
    }, 32);
    const request = new Request({ method: 'GET', target: '/' });
    const other = new Request({ method: 'GET', target: '/other' });
    const response = await kernel.handle(request);
    await kernel.handle(other);
    const data = collector.collect(request);
    assert.equal(data.duration, 12.5);
    assert.deepEqual(data.events.map(({ event, listener }) => `${event}:${listener}`), ['request:routeIt', 'controllerCall:controller']);
    assert.ok(data.events[0]!.start >= 0 && data.events[0]!.end >= data.events[0]!.start);
    await kernel.terminate(request, response);
    assert.equal(collector.lateCollect(data, request).events.length, 2);
  });
});

describe('TimeCollector after the response', () => {
  it('makes the total time run to the end of the listeners that ran after collection, as the panel shows them', () => {
    const request = new Request({ method: 'GET', target: '/' });
    const collector = new TimeCollector({ now: () => request.startedAt + 10 });
    // The tracer's clock is performance.now(); the request's is performance.timeOrigin-based.
    const at = (ms: number) => request.startedAt - performance.timeOrigin + ms;
    const trace = (listener: string, start: number, end: number) => collector.tracer({ request } as never, 'response', listener, at(start), at(end));
    trace('ProfilerListener.onResponse', 8, 11);
    const data = collector.collect(request);
    assert.equal(data.duration, 10);
    trace('ToolbarListener.onResponse', 11, 12.5);
    const late = collector.lateCollect(data, request);
    assert.equal(late.duration, 12.5);
    const profile: Profile = { token: 'abc123', parent: undefined, children: [], time: 0, method: 'GET', url: '/', ip: '127.0.0.1', statusCode: 200, type: 'request', collectors: {} };
    const html = renderToString(h(TimePanel, { profile, data: late, base: '', query: new URLSearchParams(), routes: undefined }));
    assert.match(html, /<span class="value">12\.5 ms<\/span><span class="label">Total time<\/span>/);
    assert.match(html, /0 – 12\.5 ms/);
  });
});

describe('TimeCollector and the controller', () => {
  it("times the controller's own call, up to the end of what it awaits, and a controller that throws too", async () => {
    const kernel = new Kernel();
    const collector = new TimeCollector();
    kernel.dispatcher.tracer = collector.tracer;
    kernel.dispatcher.on('request', function routeIt(event) {
      event.request.attributes.controller =
        event.request.pathInfo === '/slow'
          ? async function slow() {
              await new Promise((resolve) => setTimeout(resolve, 30));
              return Response.text('ok');
            }
          : function broken(): never {
              throw new Error('broken');
            };
    }, 32);
    const slow = new Request({ method: 'GET', target: '/slow' });
    await kernel.handle(slow);
    const [call] = collector.collect(slow).events.filter((entry) => entry.event === 'controllerCall');
    assert.equal(call?.listener, 'slow');
    assert.ok(call.end - call.start >= 25, `${call.end - call.start} ms`);
    const broken = new Request({ method: 'GET', target: '/broken' });
    await kernel.handle(broken).catch(() => undefined);
    assert.deepEqual(collector.collect(broken).events.map(({ event, listener }) => `${event}:${listener}`), ['request:routeIt', 'controllerCall:broken']);
  });
});

describe('LoggerCollector', () => {
  it('makes contexts storable after the response: errors summarised with their frames, cycles cut', () => {
    const request = new Request({ method: 'GET', target: '/' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const logs = [{ time: 1, level: 'error' as const, channel: 'request', message: 'boom', context: { exception: new TypeError('bad'), cyclic } }];
    request.stack = { logs } as never;
    const collector = new LoggerCollector();
    const late = collector.lateCollect(collector.collect(request), request);
    const { trace, ...summary } = late.logs[0]?.context.exception as { trace: { file: string }[] };
    assert.deepEqual(summary, { class: 'TypeError', message: 'bad' });
    assert.match(trace[0]!.file, /time-collector\.test\.ts$/);
    assert.doesNotThrow(() => JSON.stringify(late));
  });

  it("stores no frames for the request's own error and its causes, which the exception panel shows", () => {
    const request = new Request({ method: 'GET', target: '/' });
    const cause = new RangeError('inner');
    const failure = new TypeError('outer', { cause });
    const caught = new Error('caught and logged');
    const logs = [failure, cause, caught].map((error) => ({ time: new Date(), level: 'error', channel: 'request', message: 'x', context: { exception: error }, requestId: request.id }));
    request.stack = { logs } as never;
    const collector = new LoggerCollector();
    const late = collector.lateCollect(collector.collect(request), request, undefined, failure);
    const traces = late.logs.map((record) => (record.context.exception as { trace: unknown }).trace);
    assert.deepEqual(traces.slice(0, 2), [TRACE_IN_EXCEPTION_PANEL, TRACE_IN_EXCEPTION_PANEL]);
    assert.ok(Array.isArray(traces[2]) && traces[2].length > 0, 'an error the application caught keeps its frames');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from './request.js';
import { lastEventId, serverSentEvent } from './server-sent-event.js';

describe('serverSentEvent', () => {
  it('writes the fields in the event stream format, ended by a blank line', () => {
    assert.equal(serverSentEvent({ event: 'price', id: '7', retry: 3000, data: '{"eur":1}' }), 'event: price\nid: 7\nretry: 3000\ndata: {"eur":1}\n\n');
  });

  it('writes data holding \\n, \\r\\n or a lone \\r as several data lines, never as another field or event', () => {
    assert.equal(serverSentEvent({ data: 'a\nevent: admin\r\nid: 9\r\rb' }), 'data: a\ndata: event: admin\ndata: id: 9\ndata: \ndata: b\n\n');
  });

  it('keeps an empty data line, which the client dispatches as an event with empty data', () => {
    assert.equal(serverSentEvent({ data: '' }), 'data: \n\n');
  });

  it('writes a comment holding line ends as several comment lines, a heartbeat alone as one', () => {
    assert.equal(serverSentEvent({ comment: 'ping' }), ': ping\n\n');
    assert.equal(serverSentEvent({ comment: 'a\n\ndata: x' }), ': a\n: \n: data: x\n\n');
  });

  it('refuses an event type or an id holding a line break, naming the field', () => {
    assert.throws(() => serverSentEvent({ event: 'a\ndata: x', data: 'y' }), { name: 'TypeError', message: /event type cannot hold a line break .*"a\\ndata: x"/ });
    assert.throws(() => serverSentEvent({ id: '1\r', data: 'y' }), { name: 'TypeError', message: /id cannot hold a line break/ });
  });

  it('refuses an id holding a NUL, which the client would ignore', () => {
    assert.throws(() => serverSentEvent({ id: 'a\0b' }), { name: 'TypeError', message: /id cannot hold a NUL character/ });
  });

  it('refuses a retry that is no whole number of milliseconds', () => {
    for (const retry of [-1, 1.5, Number.NaN, Infinity, 1e21]) {
      assert.throws(() => serverSentEvent({ retry }), { name: 'TypeError', message: /retry is a whole number of milliseconds/ }, String(retry));
    }
    assert.equal(serverSentEvent({ retry: 0 }), 'retry: 0\n\n');
  });
});

describe('lastEventId', () => {
  const request = (headers: Record<string, string>) => new Request({ method: 'GET', target: '/events', headers: { host: 'localhost', ...headers } });

  it('reads the id a client sends back in UTF-8 as the text the event gave it', () => {
    // node:http hands header bytes over one character each.
    const sent = Buffer.from('prix-€').toString('latin1');
    assert.equal(lastEventId(request({ 'last-event-id': sent })), 'prix-€');
    assert.equal(lastEventId(request({ 'last-event-id': '42' })), '42');
  });

  it('is undefined on a first connection', () => {
    assert.equal(lastEventId(request({})), undefined);
  });
});

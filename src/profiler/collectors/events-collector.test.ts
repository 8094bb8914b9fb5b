import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventDispatcher } from '../../kernel/event-dispatcher.js';
import { EventsCollector } from './events-collector.js';

describe('EventsCollector', () => {
  it('records every listener of every event in call order, one frozen snapshot until the listeners change', () => {
    const dispatcher = new EventDispatcher();
    dispatcher.on('request', function late() {}, -10);
    dispatcher.on('request', function early() {}, 10);
    const collector = new EventsCollector(dispatcher);
    const first = collector.collect();
    assert.deepEqual(first, { registered: [{ event: 'request', listeners: [{ name: 'early', priority: 10 }, { name: 'late', priority: -10 }] }] });
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.registered[0]!.listeners[0]), 'shared by every record, written once per batch');
    assert.equal(collector.collect(), first);
    dispatcher.on('terminate', function flush() {});
    assert.deepEqual(collector.collect().registered.map(({ event }) => event), ['request', 'terminate']);
  });
});

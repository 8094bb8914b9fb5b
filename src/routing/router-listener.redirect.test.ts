import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { RecordingLogger } from '../logging/recording-logger.js';
import { Matcher } from './matcher.js';
import { RouteCollection } from './route-collection.js';
import { RouterListener } from './router-listener.js';

describe('RouterListener, for a redirect it answers itself', () => {
  it('logs the target route\'s defaults and placeholders after the redirect controller\'s parameters', async () => {
    const routes = new RouteCollection().add({
      name: 'preview',
      path: '/preview/{code}.{_format}',
      defaults: { _format: 'html', path: 'kept out' },
      controller: () => Response.text('preview'),
    });
    const logger = new RecordingLogger();
    const kernel = new Kernel();
    kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger }));
    const request = new Request({ method: 'GET', target: '/preview/404.json/', headers: { host: 'app.example.test' }, encrypted: true });
    const response = await kernel.handle(request);
    assert.equal(response.status, 301);
    // A listener after the router sees the redirect and the route it leads to.
    assert.equal(request.attributes.routing?.redirect?.path, '/preview/404.json');
    assert.equal(request.attributes.routing?.route?.name, 'preview');
    // Key order too: the reference's `redirect(…) + $ret`, where the redirect's own `path` wins.
    assert.deepEqual(Object.entries(logger.records[0]?.context.route_parameters as object), [
      ['_controller', 'RedirectController::urlRedirectAction'],
      ['path', '/preview/404.json'],
      ['permanent', true],
      ['scheme', null],
      ['httpPort', 80],
      ['httpsPort', 443],
      ['_route', 'preview'],
      ['_format', 'json'],
      ['code', '404'],
    ]);
  });
});

describe('RouterListener, for the listeners after it', () => {
  it('keeps the route matched on the request, its options with it', async () => {
    const routes = new RouteCollection().add({ name: 'notes', path: '/notes', options: { auth: 'bearer' }, controller: () => Response.text('notes') });
    const kernel = new Kernel();
    kernel.dispatcher.addSubscriber(new RouterListener({ matcher: new Matcher(routes), logger: new RecordingLogger() }));
    let seen: unknown;
    kernel.dispatcher.on('request', (event) => {
      seen = event.request.attributes.routing?.route?.options;
    }, 8);
    const response = await kernel.handle(new Request({ method: 'GET', target: '/notes', headers: { host: 'app.example.test' } }));
    assert.equal(response.status, 200);
    assert.deepEqual(seen, { auth: 'bearer' });
  });
});


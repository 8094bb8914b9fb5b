import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundHttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { Kernel } from '../kernel/kernel.js';
import type { Response } from '../http/response.js';
import { createErrorController, createPreviewErrorRoute } from './error-controller.js';
import { ErrorRenderer } from './renderers/error-renderer.js';

// These controllers read no application: called directly, they get none.
const NO_APP = undefined as never;
const renderer = new ErrorRenderer({ debug: true });

describe('createErrorController', () => {
  it('renders the request attribute `exception`, then Cache-Control and Date follow the rendered headers', async () => {
    const request = new Request({ method: 'GET', target: '/x', headers: { accept: 'application/json' } });
    request.attributes.exception = new NotFoundHttpException('gone');
    const response = (await createErrorController(renderer)(request, {}, NO_APP)) as Response;
    assert.equal(response.status, 404);
    assert.deepEqual([...response.headers].map(([name]) => name), ['Vary', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Content-Type', 'Cache-Control', 'Date']);
    assert.equal(JSON.parse(String(response.body)).detail, 'gone');
  });
});

describe('createPreviewErrorRoute', () => {
  const kernel = new Kernel();
  const handled: string[] = [];
  kernel.dispatcher.on('request', (event) => void handled.push(`${event.request.type} ${String(event.request.attributes.controllerName)}`));
  const route = createPreviewErrorRoute(kernel, createErrorController(renderer));

  it('declares the reference route: name, path, requirement and default format', () => {
    assert.deepEqual({ ...route, controller: undefined }, {
      name: '_preview_error',
      path: '/_error/{code}.{_format}',
      requirements: { code: '[45]\\d\\d' },
      defaults: { _format: 'html' },
      controller: undefined,
    });
  });

  it('shows the page a visitor would get, without internals even in debug', () => {
    const request = new Request({ method: 'GET', target: '/_error/404' });
    const response = route.controller(request, { code: '404', _format: 'html' }, NO_APP) as Response;
    assert.equal(response.status, 404);
    assert.deepEqual([...response.headers].map(([name]) => name), ['Content-Type', 'Vary', 'Cache-Control', 'Date']);
    assert.ok(String(response.body).includes('<title>An Error Occurred: Not Found</title>'));
    assert.ok(!String(response.body).includes('sample exception'));
  });

  it('renders it in a sub-request of the error controller, as the reference does', () => {
    handled.length = 0;
    route.controller(new Request({ method: 'GET', target: '/_error/503' }), { code: '503', _format: 'html' }, NO_APP);
    assert.deepEqual(handled, ['sub ErrorController']);
  });

  it('answers the JSON body for the json format, whatever Accept says', () => {
    const request = new Request({ method: 'GET', target: '/_error/404.json', headers: { accept: 'text/html' } });
    const response = route.controller(request, { code: '404', _format: 'json' }, NO_APP) as Response;
    assert.equal(String(response.body), '{"type":"https:\\/\\/tools.ietf.org\\/html\\/rfc2616#section-10","title":"An error occurred","status":404,"detail":"Not Found"}');
    assert.deepEqual([...response.headers].map(([name]) => name), ['Vary', 'Content-Type', 'Cache-Control', 'Date']);
  });

  it('serialises the csv, yaml and yml formats as the reference does, with the format as Content-Type, and txt as HTML', () => {
    // The bodies and types of GET /_error/404.<format> on the reference (Symfony with its serializer).
    const expected: Record<string, [string, string]> = {
      csv: ['csv', 'type,title,status,detail\nhttps://tools.ietf.org/html/rfc2616#section-10,"An error occurred",404,"Not Found"\n'],
      yaml: ['yaml', "{ type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: 404, detail: 'Not Found' }"],
      yml: ['yml', "{ type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: 404, detail: 'Not Found' }"],
    };
    for (const [format, [type, body]] of Object.entries(expected)) {
      const response = route.controller(new Request({ method: 'GET', target: `/_error/404.${format}` }), { code: '404', _format: format }, NO_APP) as Response;
      assert.equal(String(response.body), body, format);
      assert.equal(response.headers.get('content-type'), type, format);
    }
    const text = route.controller(new Request({ method: 'GET', target: '/_error/404.txt' }), { code: '404', _format: 'txt' }, NO_APP) as Response;
    assert.equal(text.headers.get('content-type'), 'text/html; charset=UTF-8');
  });

  it('refuses a code that is not an HTTP status', () => {
    const request = new Request({ method: 'GET', target: '/_error/999' });
    // Named as the reference's Response names it, in the log line and the error page.
    assert.throws(
      () => route.controller(request, { code: '999' }, NO_APP),
      (error: Error) => error.constructor.name === 'InvalidArgumentException' && error.message === 'The HTTP status code "999" is not valid.',
    );
    // A 1xx would be sent as the final answer, and the client would go on waiting for one.
    assert.throws(() => route.controller(request, { code: '100' }, NO_APP), /The HTTP status code "100" is informational/);
  });
});

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { HttpException, MethodNotAllowedHttpException, NotFoundHttpException } from '../../http/http-exception.js';
import { headerText } from '../../http/header-text.js';
import { Request } from '../../http/request.js';
import { rawurlencode } from '../../internal/rawurlencode.js';
import { ErrorRenderer } from './error-renderer.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const MESSAGE = 'No route found for "GET http://localhost/robots.txt"';

function request(accept?: string): Request {
  return new Request({ method: 'GET', target: '/robots.txt', headers: accept === undefined ? {} : { accept } });
}

const names = (headers: [string, string][]) => headers.map(([name]) => name);

describe('ErrorRenderer', () => {
  describe('when debug is on', () => {
    const renderer = new ErrorRenderer({ debug: true });

    it('sends HTML headers in the reference order: Content-Type, debug headers, Vary', () => {
      const { status, headers } = renderer.render(new NotFoundHttpException(MESSAGE), request('text/html'));
      assert.equal(status, 404);
      assert.deepEqual(names(headers), ['Content-Type', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Vary']);
      assert.deepEqual(headers[0], ['Content-Type', 'text/html; charset=UTF-8']);
      assert.deepEqual(headers[3], ['Vary', 'Accept']);
    });

    it('puts the Allow header of a 405 between the debug headers and Vary', () => {
      const { status, headers } = renderer.render(new MethodNotAllowedHttpException(['POST'], 'nope'), request());
      assert.equal(status, 405);
      assert.deepEqual(headers.slice(2), [
        headers[2],
        ['Allow', 'POST'],
        ['Vary', 'Accept'],
      ]);
      assert.equal(headers[2]![0], 'X-Debug-Exception-File');
    });

    it('encodes the message and the creation site in the debug headers', () => {
      const error = new NotFoundHttpException(MESSAGE);
      const { headers } = renderer.render(error, request());
      const line = Number(/:(\d+):\d+\)?\n/.exec(error.stack!)![1]);
      assert.deepEqual(headers[1], ['X-Debug-Exception', 'No%20route%20found%20for%20%22GET%20http%3A%2F%2Flocalhost%2Frobots.txt%22']);
      assert.deepEqual(headers[2], ['X-Debug-Exception-File', `${rawurlencode(THIS_FILE)}:${line}`]);
    });

    it('falls back to the HTML page, Vary after its headers, when JSON cannot encode a Referer\'s bytes that are no UTF-8', () => {
      const referer = headerText('https://ex.test/\u00e9\u00ff');
      const { status, headers, body } = renderer.render(new NotFoundHttpException(`${MESSAGE} (from "${referer}")`), request('application/json'));
      assert.equal(status, 404);
      assert.deepEqual(names(headers), ['Content-Type', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Vary']);
      assert.deepEqual(headers[0], ['Content-Type', 'text/html; charset=UTF-8']);
      assert.match(headers[1]![1], /%E9%FF%22%29$/);
      assert.match(body, /^<!-- No route found for &quot;GET http:\/\/localhost\/robots.txt&quot; \(from &quot;https:\/\/ex.test\/\ufffd&quot;\) \(404 Not Found\) -->/);
    });

    it('keeps only the first 2000 bytes of a long message in X-Debug-Exception', () => {
      const { headers } = renderer.render(new Error('a'.repeat(5000)), request());
      assert.equal(headers[1]![1], 'a'.repeat(2000));
    });

    it('cuts bytes as PHP\'s substr does, leaving the first byte of a character cut in two', () => {
      // 'a' then 'é' (C3 A9) 1000 times: byte 2000 is the C3 of the 1000th 'é'.
      const { headers } = renderer.render(new Error(`a${'é'.repeat(1000)}`), request());
      assert.equal(headers[1]![1], `a${'%C3%A9'.repeat(999)}%C3`);
      const whole = renderer.render(new Error('é'.repeat(1000)), request()).headers[1]![1];
      assert.equal(whole, '%C3%A9'.repeat(1000));
    });

    it('sends JSON headers in the reference order: Vary, debug headers, Allow, Content-Type', () => {
      const { headers, body } = renderer.render(new MethodNotAllowedHttpException(['POST'], 'nope'), request('application/json'));
      assert.deepEqual(names(headers), ['Vary', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Allow', 'Content-Type']);
      assert.deepEqual(headers.at(-1), ['Content-Type', 'application/json']);
      const problem = JSON.parse(body);
      assert.deepEqual(Object.keys(problem), ['type', 'title', 'status', 'detail', 'class', 'trace']);
      assert.deepEqual([problem.type, problem.title, problem.status, problem.detail, problem.class], [
        'https://tools.ietf.org/html/rfc2616#section-10',
        'An error occurred',
        405,
        'nope',
        'MethodNotAllowedHttpException',
      ]);
      assert.deepEqual(Object.keys(problem.trace[0]), ['namespace', 'short_class', 'class', 'type', 'function', 'file', 'line', 'args']);
      assert.equal(problem.trace[0].file, THIS_FILE);
    });

    it('writes the trace as FlattenException does: the throw site alone, then each function where it was called', () => {
      function inner(): never {
        throw new Error('deep');
      }
      class Caller {
        run(): never {
          return inner();
        }
      }
      let error: Error | undefined;
      try {
        new Caller().run();
      } catch (caught) {
        error = caught as Error;
      }
      const lines = error!.stack!.split('\n').slice(1, 4).map((frame) => Number(/:(\d+):\d+\)?$/.exec(frame)![1]));
      const { trace } = JSON.parse(renderer.render(error!, request('application/json')).body);
      assert.deepEqual(trace.slice(0, 3).map(({ class: cls, type, function: fn, line }: Record<string, unknown>) => [cls, type, fn, line]), [
        ['', '', '', lines[0]],
        ['', '', 'inner', lines[1]],
        ['Caller', '->', 'run', lines[2]],
      ]);
    });

    it('escapes slashes in JSON as the reference does', () => {
      const { body } = renderer.render(new NotFoundHttpException(MESSAGE), request('application/json'));
      assert.ok(body.includes('"detail":"No route found for \\"GET http:\\/\\/localhost\\/robots.txt\\""'), body);
    });

    it('answers XML under a <response> root for Accept: application/xml, text escaped', () => {
      const { headers, body } = renderer.render(new NotFoundHttpException('a <b> & "c"'), request('application/xml'));
      assert.deepEqual(names(headers), ['Vary', 'X-Debug-Exception', 'X-Debug-Exception-File', 'Content-Type']);
      assert.deepEqual(headers.at(-1), ['Content-Type', 'text/xml; charset=UTF-8']);
      assert.ok(body.startsWith('<?xml version="1.0"?>\n<response><type>https://tools.ietf.org/html/rfc2616#section-10</type><title>An error occurred</title><status>404</status>'));
      assert.ok(body.includes('<detail><![CDATA[a <b> & "c"]]></detail><class>NotFoundHttpException</class><trace><namespace></namespace>'));
      // Markup only ever inside CDATA, as the reference's XmlEncoder writes it.
      assert.ok(!body.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').includes('<b>'));
    });

    it('shows the message of a 5xx', () => {
      const { body } = renderer.render(new Error('Boom <b>"quoted"</b>'), request('application/json'));
      assert.equal(JSON.parse(body).detail, 'Boom <b>"quoted"</b>');
    });

    it('hides internals when the request says showException: false', () => {
      const req = request('application/json');
      req.attributes.showException = false;
      const { headers, body } = renderer.render(new NotFoundHttpException(MESSAGE), req);
      assert.deepEqual(names(headers), ['Vary', 'Content-Type']);
      assert.equal(body, '{"type":"https:\\/\\/tools.ietf.org\\/html\\/rfc2616#section-10","title":"An error occurred","status":404,"detail":"Not Found"}');
    });

    it('uses request.attributes.format over the Accept header', () => {
      const req = request('text/html');
      req.attributes.format = 'json';
      assert.deepEqual(renderer.render(new NotFoundHttpException(MESSAGE), req).headers.at(-1), ['Content-Type', 'application/json']);
    });
  });

  describe('when debug is off', () => {
    const renderer = new ErrorRenderer({ debug: false });

    it('sends no debug headers and keeps the exception headers', () => {
      const { headers } = renderer.render(new MethodNotAllowedHttpException(['POST'], 'nope'), request());
      assert.deepEqual(headers, [
        ['Content-Type', 'text/html; charset=UTF-8'],
        ['Allow', 'POST'],
        ['Vary', 'Accept'],
      ]);
    });

    it('lets an exception header replace the one the renderer set, at its place, instead of sending both', () => {
      const error = new HttpException(400, { message: 'ct', headers: { 'content-type': 'text/plain; charset=UTF-8', 'X-Own': '1' } });
      assert.deepEqual(renderer.render(error, request()).headers, [
        ['content-type', 'text/plain; charset=UTF-8'],
        ['X-Own', '1'],
        ['Vary', 'Accept'],
      ]);
      assert.deepEqual(renderer.render(error, request('application/json')).headers, [
        ['Vary', 'Accept'],
        ['content-type', 'text/plain; charset=UTF-8'],
        ['X-Own', '1'],
      ]);
      const debug = new ErrorRenderer({ debug: true }).render(new HttpException(400, { headers: { 'X-Debug-Exception': 'own' } }), request());
      assert.deepEqual(debug.headers.filter(([name]) => name === 'X-Debug-Exception'), [['X-Debug-Exception', 'own']]);
    });

    it('answers the status text, never the message, in JSON', () => {
      const { body } = renderer.render(new HttpException(503, { message: 'db password wrong' }), request('application/json'));
      assert.equal(body, '{"type":"https:\\/\\/tools.ietf.org\\/html\\/rfc2616#section-10","title":"An error occurred","status":503,"detail":"Service Unavailable"}');
    });

    it('answers the message of an exception raised with expose, with the application\'s own code, in JSON but not in the HTML page', () => {
      const conflict = new HttpException(409, { message: 'Email already registered', code: 'APP_EMAIL_TAKEN', expose: true });
      assert.equal(JSON.parse(renderer.render(conflict, request('application/json')).body).detail, 'Email already registered');
      assert.doesNotMatch(renderer.render(conflict, request()).body, /Email already registered/);
      assert.equal(JSON.parse(renderer.render(new HttpException(409, { message: 'internal detail' }), request('application/json')).body).detail, 'Conflict');
    });
  });
});

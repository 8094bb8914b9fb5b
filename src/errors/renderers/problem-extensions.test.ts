import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { ErrorRenderer } from './error-renderer.js';

// A validation failure as an API answers it: 422 and the fields at fault, for its clients to show.
const invalid = () =>
  new HttpException(422, {
    message: 'The notes are invalid.',
    code: 'APP_INVALID_NOTE',
    extensions: { violations: [{ field: 'title', message: 'must not be blank' }], 'retry-hint': false },
  });

// `accept` is an Accept header, or a format forced as a route's `_format` would (csv has no Accept of its own).
function render(debug: boolean, accept: string): string {
  const request = new Request({ method: 'POST', target: '/notes', headers: accept.includes('/') ? { accept } : {} });
  if (!accept.includes('/')) request.attributes.format = accept;
  return String(new ErrorRenderer({ debug }).render(invalid(), request).body);
}

describe('problem details with extension members', () => {
  it('carries them after the standard members in production JSON, where the message stays hidden', () => {
    assert.equal(
      render(false, 'application/json'),
      '{"type":"https:\\/\\/tools.ietf.org\\/html\\/rfc2616#section-10","title":"An error occurred","status":422,"detail":"Unprocessable Content","violations":[{"field":"title","message":"must not be blank"}],"retry-hint":false}',
    );
  });

  it('puts them before the class and the trace in debug', () => {
    const keys = Object.keys(JSON.parse(render(true, 'application/json')) as object);
    assert.deepEqual(keys, ['type', 'title', 'status', 'detail', 'violations', 'retry-hint', 'class', 'trace']);
  });

  it('writes them in XML as nested elements and in CSV as dotted columns, and leaves them out of HTML', () => {
    assert.match(render(false, 'application/xml'), /<detail>Unprocessable Content<\/detail><violations><field>title<\/field><message>must not be blank<\/message><\/violations><retry-hint>0<\/retry-hint><\/response>/);
    assert.match(render(false, 'csv'), /^type,title,status,detail,violations\.0\.field,violations\.0\.message,retry-hint\n/);
    assert.doesNotMatch(render(false, 'text/html'), /violations|must not be blank/);
  });

  it('refuses a name that is no valid member, or one of the standard members, where the error is made', () => {
    for (const name of ['detail', 'status', 'trace', '1st', 'two words', 'a<b']) {
      assert.throws(() => new HttpException(400, { extensions: { [name]: 1 } }), new RegExp(`^TypeError: "${name.replace(/[<]/g, '\\$&')}" cannot be a member of problem details`), name);
    }
  });

  it('refuses a value JSON cannot write, a BigInt or a cycle, where the error is made', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [10n, cycle]) assert.throws(() => new HttpException(422, { extensions: { id: value } }), /^TypeError: The extensions of problem details must be JSON data/);
  });
});

describe('problem details with extension members that are no plain JSON data', () => {
  it('shows each as JSON writes it, in every format: a Date as its ISO text, a function left out, never its source', () => {
    const error = new HttpException(409, { message: 'x', extensions: { retryAt: new Date(0), hook: function check() { return 'internal'; } } });
    const shown = (accept: string) => {
      const request = new Request({ method: 'GET', target: '/', headers: accept.includes('/') ? { accept } : {} });
      if (!accept.includes('/')) request.attributes.format = accept;
      return String(new ErrorRenderer({ debug: false }).render(error, request).body);
    };
    for (const format of ['application/json', 'application/xml', 'csv', 'yaml']) {
      const body = shown(format);
      assert.ok(body.includes('1970-01-01T00:00:00.000Z'), `${format}: ${body}`);
      assert.ok(!body.includes('internal') && !body.includes('check'), `${format}: ${body}`);
    }
  });
});

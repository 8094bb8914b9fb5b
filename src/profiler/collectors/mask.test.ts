import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASK, maskTextSecrets } from '../../config/mask-secrets.js';
import { NotFoundHttpException } from '../../http/http-exception.js';
import { Request } from '../../http/request.js';
import { Response } from '../../http/response.js';
import { RequestStack } from '../../kernel/request-stack.js';
import { ExceptionCollector } from './exception-collector.js';
import { LoggerCollector } from './logger-collector.js';
import { maskRecord } from './mask.js';
import { RequestCollector } from './request-collector.js';
import { ResponseCollector } from './response-collector.js';
import { RouterCollector } from './router-collector.js';

const REFERER = 'https://app.example.test/reset?token=abc123&page=2';

describe('maskTextSecrets', () => {
  it('masks secret-named parameters of URLs quoted anywhere in a text, and leaves the rest as it was', () => {
    assert.equal(
      maskTextSecrets(`No route found for "GET https://app.example.test/x" (from "${REFERER}")`),
      'No route found for "GET https://app.example.test/x" (from "https://app.example.test/reset?token=******&page=2")',
    );
    assert.equal(maskTextSecrets('/login?user=ada&pass%77ord=x y'), `/login?user=ada&pass%77ord=${MASK}`);
    // A value sent unencoded runs to the next parameter, or to the quote closing the text that quotes it.
    const raw = 'https://ref.example/?password=SP1 SP2rest&token=Q"QUOTED2&secret=a<LT3&api_key=x>GT4';
    assert.equal(maskTextSecrets(raw), `https://ref.example/?password=${MASK}&token=${MASK}&secret=${MASK}&api_key=${MASK}`);
    assert.equal(maskTextSecrets(`No route found for "GET /x" (from "${raw}")`), `No route found for "GET /x" (from "https://ref.example/?password=${MASK}&token=${MASK}&secret=${MASK}&api_key=${MASK}")`);
    // The password of a URL's userinfo, wherever the URL is quoted.
    assert.equal(maskTextSecrets('(from "https://admin:UserinfoPW1@ref.example/x")'), `(from "https://admin:${MASK}@ref.example/x")`);
    for (const text of ['text/html;q=0.9', 'plain text', '/a?page=2&sort=name', 'token without a value']) assert.equal(maskTextSecrets(text), text);
  });

  it('keeps names such as __proto__ and toString as entries of a record', () => {
    const masked = maskRecord(JSON.parse('{"__proto__":"a","toString":"b","password":"c"}') as Record<string, string>);
    assert.deepEqual(Object.entries(masked), [['__proto__', 'a'], ['toString', 'b'], ['password', MASK]]);
  });
});

describe('collectors mask secret query parameters quoted in values', () => {
  const request = new Request({ method: 'GET', target: '/about?password=hunter2&toString=1&__proto__=a&__proto__=b&constructor=c', headers: { host: 'app.example.test', referer: REFERER, cookie: 'constructor=x; toString=y' } });
  request.stack = new RequestStack();
  request.stack.push(request);

  it('request: the referer header, and parameters and cookies under built-in property names', () => {
    const data = new RequestCollector().collect(request, new Response());
    assert.equal(data.headers.referer, 'https://app.example.test/reset?token=******&page=2');
    assert.deepEqual(Object.entries(data.query), [['password', MASK], ['toString', '1'], ['__proto__', ['a', 'b']], ['constructor', 'c']]);
    assert.deepEqual(Object.keys(data.cookies), ['constructor', 'toString']);
    assert.doesNotMatch(JSON.stringify(data), /hunter2|abc123/);
  });

  it('response: a Location that carries a secret parameter, and the percent-encoded message of X-Debug-Exception', () => {
    const data = new ResponseCollector().collect(undefined, new Response('', 302, [['Location', '/next?api_key=k1&x=1']]));
    assert.deepEqual(data.headers[0], ['Location', `/next?api_key=${MASK}&x=1`]);
    const failed = new ResponseCollector().collect(undefined, new Response('', 404, [['X-Debug-Exception', 'No%20route%20%28from%20%22http%3A%2F%2Fx%2F%3Fpassword%3Dhunter2%22%29']]));
    assert.equal(decodeURIComponent(failed.headers[0]![1]), `No route (from "http://x/?password=${MASK}")`);
  });

  it('logs: messages, context strings and the errors of the context', () => {
    request.stack!.logs.push({
      time: 0,
      level: 'info',
      channel: 'request',
      message: `Referred by ${REFERER}`,
      context: { request_uri: 'https://app.example.test/about?password=hunter2', nested: { list: [REFERER] }, exception: new Error(`from "${REFERER}"`) },
    });
    const data = new LoggerCollector().lateCollect({ logs: [] }, request);
    const text = JSON.stringify(data);
    assert.doesNotMatch(text, /hunter2|abc123/);
    assert.match(text, /request_uri":"https:\/\/app\.example\.test\/about\?password=\*{6}"/);
  });

  it('exception: the messages of the chain', () => {
    const data = new ExceptionCollector().collect(request, new Response(), new NotFoundHttpException(`No route found for "GET /x" (from "${REFERER}")`));
    assert.equal(data.chain[0]!.message, 'No route found for "GET /x" (from "https://app.example.test/reset?token=******&page=2")');
  });

  it("router and request: route parameters named like secrets, and the Location of the router's redirect", () => {
    const redirected = new Request({ method: 'GET', target: '/blog?token=LOCTOK5&x=1' });
    redirected.attributes.routeParams = { token: 'reset-me', page: '2' };
    assert.deepEqual({ ...new RouterCollector().collect(redirected).routeParams }, { token: MASK, page: '2' });
    assert.deepEqual({ ...new RequestCollector().collect(redirected, new Response()).routeParams }, { token: MASK, page: '2' });
    redirected.attributes.routing = { context: { method: 'GET', path: '/blog', host: 'localhost', scheme: 'http' }, redirect: { path: '/blog/', url: 'http://localhost/blog/?token=LOCTOK5&x=1' } };
    assert.equal(new RouterCollector().collect(redirected).redirect?.url, `http://localhost/blog/?token=${MASK}&x=1`);
  });
});

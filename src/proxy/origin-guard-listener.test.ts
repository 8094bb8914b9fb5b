import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { BadRequestHttpException, type HttpException } from '../http/http-exception.js';
import { Request } from '../http/request.js';
import { ConflictingHeadersException, SuspiciousOperationException } from '../http/request-exceptions.js';
import { Response } from '../http/response.js';
import { Kernel } from '../kernel/kernel.js';
import { OriginGuardListener } from './origin-guard-listener.js';
import { createOriginResolver } from './trusted-proxies.js';

const resolveOrigin = createOriginResolver({
  trustedProxies: ['127.0.0.1'],
  trustedHeaders: ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-port'],
  trustedHosts: ['^app\\.example\\.test$'],
});

function createKernel(): { kernel: Kernel; errors: unknown[] } {
  const kernel = new Kernel();
  const errors: unknown[] = [];
  kernel.dispatcher.addSubscriber(new OriginGuardListener());
  kernel.dispatcher.on('request', (event) => {
    event.request.attributes.controller = () => Response.text(`hello ${event.request.clientIp}`);
  });
  kernel.dispatcher.on('exception', (event) => {
    errors.push(event.error);
    const error = event.error as HttpException;
    event.setResponse(Response.text(`${error.code}: ${error.message}`, error.status));
  });
  return { kernel, errors };
}

function request(headers: IncomingHttpHeaders): Request {
  return new Request({ method: 'GET', target: '/', headers, remoteAddress: '127.0.0.1', resolveOrigin });
}

describe('OriginGuardListener', () => {
  it('lets a request with a consistent, trusted origin through', async () => {
    const { kernel } = createKernel();
    const response = await kernel.handle(request({ host: 'app.example.test', 'x-forwarded-for': '203.0.113.7' }));
    assert.equal(response.status, 200);
    assert.equal(response.body, 'hello 203.0.113.7');
  });

  it('answers 400 with Symfony\'s ConflictingHeadersException text when Forwarded and X-Forwarded-For disagree', async () => {
    const { kernel, errors } = createKernel();
    const response = await kernel.handle(request({ host: 'app.example.test', forwarded: 'for=192.0.2.60', 'x-forwarded-for': '203.0.113.7' }));
    assert.equal(response.status, 400);
    assert.equal(
      response.body,
      'KEEL_ERR_PROXY_CONFLICTING_HEADERS: The request has both a trusted "FORWARDED" header and a trusted "X_FORWARDED_FOR" header, conflicting with each other. You should either configure your proxy to remove one of them, or configure your project to distrust the offending one.',
    );
    assert.ok(errors[0] instanceof BadRequestHttpException);
    // Wrapping the request exception, as the reference's kernel does: the log line shows it as the previous one.
    assert.ok(errors[0].cause instanceof ConflictingHeadersException);
  });

  it('answers 400 Untrusted Host for a host outside the trusted patterns', async () => {
    const { kernel, errors } = createKernel();
    const response = await kernel.handle(request({ host: 'evil.test' }));
    assert.equal(response.status, 400);
    assert.equal(response.body, 'KEEL_ERR_UNTRUSTED_HOST: Untrusted Host "evil.test".');
    assert.ok((errors[0] as Error).cause instanceof SuspiciousOperationException);
  });

  it('answers 400 Invalid Host for a malformed host, named as sent: trimmed, without its port, lower-cased, UTF-8', async () => {
    const { kernel, errors } = createKernel();
    const cases: [string, string][] = [
      ['a b.test', 'a b.test'],
      [' Bad_Host!:8080 ', 'bad_host!'],
      [Buffer.from('bücher.test', 'utf8').toString('latin1'), 'bücher.test'],
    ];
    for (const [host, named] of cases) {
      const response = await kernel.handle(request({ host }));
      assert.equal(response.status, 400);
      assert.equal(response.body, `KEEL_ERR_UNTRUSTED_HOST: Invalid Host "${named}".`);
    }
    assert.ok(errors.every((error) => error instanceof BadRequestHttpException));
  });

  it('answers 400 Invalid Host for two Host headers, joined as the reference joins them', async () => {
    const { kernel } = createKernel();
    const twoHosts = new Request({ method: 'GET', target: '/', headers: { rawHeaders: ['Host', 'app.example.test', 'Host', 'second.test'] }, remoteAddress: '127.0.0.1', resolveOrigin });
    const response = await kernel.handle(twoHosts);
    assert.equal(response.status, 400);
    assert.equal(response.body, 'KEEL_ERR_UNTRUSTED_HOST: Invalid Host "app.example.test, second.test".');
  });

  it('leaves sub-requests alone, so that the error page of a bad origin can still be rendered', async () => {
    const { kernel } = createKernel();
    const response = await kernel.handle(request({ host: 'evil.test' }), { type: 'sub' });
    assert.equal(response.status, 200);
  });

  it('subscribes to the request event before the router', () => {
    assert.deepEqual(new OriginGuardListener().subscribedEvents().map(({ event, priority }) => ({ event, priority })), [{ event: 'request', priority: 256 }]);
  });
});

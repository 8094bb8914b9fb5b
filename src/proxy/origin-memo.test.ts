import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { Request, type RequestOrigin } from '../http/request.js';
import { memoizeOrigins } from './origin-memo.js';

function counting() {
  let calls = 0;
  const resolve = memoizeOrigins(
    (request) => {
      calls++;
      return { scheme: 'http', host: request.header('host') ?? '', port: 80, clientIps: [request.remoteAddress], viaTrustedProxy: false, prefix: '', sources: { scheme: 'connection', host: 'Host header', port: 'scheme default', clientIp: 'TCP peer' } };
    },
    ['x-forwarded-for', 'x-forwarded-proto'],
  );
  const origin = (headers: IncomingHttpHeaders, remoteAddress = '127.0.0.1', encrypted = false, localHost?: string): RequestOrigin => {
    const request = new Request({ method: 'GET', target: '/', headers, remoteAddress, encrypted, resolveOrigin: resolve });
    if (localHost !== undefined) request.localHost = localHost;
    return request.origin;
  };
  return { origin, resolve, calls: () => calls };
}

describe('memoizeOrigins', () => {
  it('gives requests with the same inputs one frozen origin, whatever other headers they carry', () => {
    const { origin, calls } = counting();
    const first = origin({ host: 'app.test', 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '1.1.1.1' });
    const second = origin({ host: 'app.test', 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '2.2.2.2', 'user-agent': 'other' });
    assert.equal(second, first);
    assert.equal(calls(), 1);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.sources) && Object.isFrozen(first.clientIps));
  });

  it('resolves again when any input differs: peer, TLS, server name, Host or a listed header', () => {
    const { origin, calls } = counting();
    const base = { host: 'app.test', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
    origin(base);
    origin(base, '10.0.0.1');
    origin(base, '127.0.0.1', true);
    origin(base, '127.0.0.1', false, 'server.test');
    origin({ ...base, host: 'other.test' });
    origin({ ...base, 'x-forwarded-for': '203.0.113.8' });
    origin({ ...base, 'x-forwarded-proto': 'http' });
    const { 'x-forwarded-proto': _absent, ...withoutProto } = base;
    origin(withoutProto);
    origin({ ...base, 'x-forwarded-proto': '' });
    assert.equal(calls(), 9);
  });

  it('never takes two different sets of values for one: each value is length-prefixed', () => {
    const { origin, calls } = counting();
    origin({ host: 'a', 'x-forwarded-for': '1:b' });
    origin({ host: 'a1:b' });
    origin({ host: 'a1:b', 'x-forwarded-for': '' });
    origin({ host: '-', 'x-forwarded-for': '-' });
    origin({ host: '1:-' });
    assert.equal(calls(), 5);
  });

  it('answers clients that take turns from the right inputs, more of them than it compares line by line', () => {
    const { origin, calls } = counting();
    const clients = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5', '203.0.113.6'];
    for (let round = 0; round < 3; round++) {
      for (const client of clients) {
        const resolved = origin({ host: 'app.test', 'x-forwarded-for': client });
        assert.equal(resolved.host, 'app.test');
      }
    }
    assert.equal(calls(), clients.length);
    // The same header lines in another order are other inputs: resolved again, never mixed up.
    const request = (rawHeaders: string[]) => new Request({ method: 'GET', target: '/', headers: { rawHeaders }, resolveOrigin: resolveCounting.resolve }).origin;
    const resolveCounting = counting();
    const a = request(['Host', 'a.test', 'X-Forwarded-For', '1.1.1.1']);
    const b = request(['X-Forwarded-For', '1.1.1.1', 'Host', 'a.test']);
    const c = request(['host', 'a.test', 'x-forwarded-for', '1.1.1.2']);
    assert.equal(b.host, a.host);
    assert.equal(c.host, 'a.test');
    assert.equal(resolveCounting.calls(), 3);
  });

  it('stays bounded: past its limit it forgets what it held', () => {
    const { origin, calls } = counting();
    origin({ host: 'first.test' });
    for (let i = 0; i < 1100; i++) origin({ host: `h${i}.test` });
    const before = calls();
    origin({ host: 'first.test' });
    assert.equal(calls(), before + 1);
  });
});

import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { createOriginResolver, type ResolvedOrigin } from './trusted-proxies.js';

// Edge cases of the forwarded values, each checked against Symfony's Request (5.4, and the 6.4+ sources
// where they differ): a trusted peer 10.0.0.1 sending every X-Forwarded-* header and Forwarded.
const ALL_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix'] as const;

function resolved(headers: IncomingHttpHeaders, trustedHosts: string[] = []): ResolvedOrigin & { uri: string } {
  const resolveOrigin = createOriginResolver({ trustedProxies: ['10.0.0.0/8'], trustedHeaders: ALL_HEADERS, trustedHosts });
  const request = new Request({ method: 'GET', target: '/x', headers, remoteAddress: '10.0.0.1', resolveOrigin });
  return { ...(request.origin as ResolvedOrigin), uri: request.uriForPath('/x') };
}

describe('forwarded values', () => {
  it('reads a present but empty X-Forwarded-Proto, or an empty first item, as plain HTTP, even over TLS', () => {
    assert.equal(resolved({ host: 'app.test', 'x-forwarded-proto': ', https' }).scheme, 'http');
    const request = new Request({ method: 'GET', target: '/x', headers: { host: 'app.test', 'x-forwarded-proto': '' }, remoteAddress: '10.0.0.1', encrypted: true, resolveOrigin: createOriginResolver({ trustedProxies: ['10.0.0.0/8'], trustedHeaders: ALL_HEADERS }) });
    assert.equal(request.scheme, 'http');
  });

  it('never takes a later X-Forwarded-Host item for an empty first one, and checks "" against the trusted hosts', () => {
    assert.equal(resolved({ host: 'app.test', 'x-forwarded-host': ', other.com' }).uri, 'http://localhost/x');
    const refused = resolved({ host: 'app.test', 'x-forwarded-host': '' }, ['^app\\.test$']);
    assert.equal(refused.problem, 'untrusted-host');
    assert.equal(refused.problemDetail, '');
  });

  it('takes the scheme default, never the Host header port, when X-Forwarded-Port holds no usable port', () => {
    const port = (value: string) => resolved({ host: 'app.test:8080', 'x-forwarded-proto': 'https', 'x-forwarded-port': value }).port;
    for (const value of ['', '0', ', 8443', 'abc', '-1', '99999']) assert.equal(port(value), 443, JSON.stringify(value));
    assert.equal(port('443abc'), 443);
    assert.equal(port('8443'), 8443);
    assert.equal(port('1e3'), 1000, 'PHP casts a numeric string with an exponent whole');
  });

  it("uses the server's own port when the request names no host at all, as the reference's SERVER_PORT", () => {
    const resolveOrigin = createOriginResolver({ trustedProxies: ['10.0.0.0/8'], trustedHeaders: ALL_HEADERS });
    const uri = (headers: IncomingHttpHeaders, localPort = 8123) => new Request({ method: 'GET', target: '/x', headers, remoteAddress: '10.0.0.1', localPort, httpVersion: '1.0', resolveOrigin }).uriForPath('/x');
    assert.equal(uri({}), 'http://localhost:8123/x');
    assert.equal(uri({ host: '' }), 'http://localhost:8123/x');
    assert.equal(uri({}, 80), 'http://localhost/x');
    assert.equal(uri({ host: 'app.test' }), 'http://app.test/x', 'a named host keeps its own port');
    assert.equal(uri({ 'x-forwarded-port': '8443', 'x-forwarded-proto': 'https' }), 'https://localhost:8443/x');
    // Without trusted proxies too.
    assert.equal(new Request({ method: 'GET', target: '/x', headers: {}, localPort: 8123 }).uriForPath('/x'), 'http://localhost:8123/x');
  });

  it('reads port 0 in a host as no port', () => {
    assert.equal(resolved({ host: 'app.test:0' }).uri, 'http://app.test/x');
    assert.equal(resolved({ host: 'app.test', 'x-forwarded-host': 'example.com:0', 'x-forwarded-proto': 'https' }).uri, 'https://example.com/x');
  });

  it('compares the port of Forwarded host= with X-Forwarded-Port as text, as the reference does', () => {
    const o = resolved({ host: 'app.test', forwarded: 'host=ex.test:0443;proto=https', 'x-forwarded-port': '0443', 'x-forwarded-proto': 'https' });
    assert.equal(o.problem, undefined);
    assert.equal(o.uri, 'https://ex.test/x');
  });

  it('names the first failure in the reference order: client IPs, host (conflict, invalid, untrusted), scheme, port', () => {
    const conflict = (headers: IncomingHttpHeaders, trustedHosts?: string[]) => {
      const o = resolved({ host: 'app.test', ...headers }, trustedHosts);
      return `${o.problem}:${o.problemDetail}`;
    };
    assert.equal(conflict({ forwarded: 'for=1.1.1.1;proto=https', 'x-forwarded-for': '2.2.2.2', 'x-forwarded-proto': 'http' }), 'conflicting-forwarded-headers:X_FORWARDED_FOR');
    assert.equal(conflict({ forwarded: 'proto=https;host=a.test', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'b.test' }), 'conflicting-forwarded-headers:X_FORWARDED_HOST');
    assert.equal(conflict({ forwarded: 'proto=https', 'x-forwarded-proto': 'http', host: 'bad host' }), 'invalid-host:bad host');
    assert.equal(conflict({ forwarded: 'host=a.test', 'x-forwarded-port': '1' }, ['^b\\.test$']), 'untrusted-host:a.test');
    assert.equal(conflict({ forwarded: 'proto=https', 'x-forwarded-proto': 'http', 'x-forwarded-port': '1' }), 'conflicting-forwarded-headers:X_FORWARDED_PROTO');
    assert.equal(conflict({ forwarded: 'host=a.test', 'x-forwarded-port': '1' }), 'conflicting-forwarded-headers:X_FORWARDED_PORT');
  });
});

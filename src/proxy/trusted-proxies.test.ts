import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { Request } from '../http/request.js';
import { createOriginResolver, type OriginResolverOptions, type ResolvedOrigin } from './trusted-proxies.js';

const SEED_HEADERS: IncomingHttpHeaders = {
  host: 'app.example.test',
  'x-forwarded-for': '203.0.113.7',
  'x-forwarded-host': 'app.example.test',
  'x-forwarded-port': '443',
  'x-forwarded-proto': 'https',
  'x-forwarded-server': 'proxy-1',
  'x-real-ip': '203.0.113.7',
};
const SYMFONY_DEFAULT = ['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto'] as const;

function origin(options: OriginResolverOptions, headers: IncomingHttpHeaders, remoteAddress = '127.0.0.1', encrypted = false): ResolvedOrigin {
  const request = new Request({ method: 'GET', target: '/robots.txt', headers, remoteAddress, encrypted, resolveOrigin: createOriginResolver(options) });
  return request.origin as ResolvedOrigin;
}

describe('createOriginResolver', () => {
  describe('when the seed\'s proxy headers come from a trusted peer', () => {
    it('answers https, the host, port 443 and the client address', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS);
      assert.equal(o.scheme, 'https');
      assert.equal(o.host, 'app.example.test');
      assert.equal(o.port, 443);
      assert.deepEqual(o.clientIps, ['203.0.113.7']);
      assert.equal(o.viaTrustedProxy, true);
      assert.deepEqual(o.sources, { scheme: 'X-Forwarded-Proto', host: 'Host header', port: 'X-Forwarded-Port', clientIp: 'X-Forwarded-For' });
      assert.equal(o.problem, undefined);
    });

    it('builds the request URI the 404 message quotes', () => {
      const request = new Request({ method: 'GET', target: '/robots.txt', headers: SEED_HEADERS, remoteAddress: '127.0.0.1', resolveOrigin: createOriginResolver({ trustedProxies: ['loopback'], trustedHeaders: SYMFONY_DEFAULT }) });
      assert.equal(request.uri, 'https://app.example.test/robots.txt');
      assert.equal(request.clientIp, '203.0.113.7');
    });
  });

  describe('when the same headers come from an untrusted peer', () => {
    it('ignores every forwarded header: http, the Host header, the peer as client', () => {
      const o = origin({ trustedProxies: ['10.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, { ...SEED_HEADERS, host: '127.0.0.1:8765' });
      assert.equal(o.scheme, 'http');
      assert.equal(o.host, '127.0.0.1');
      assert.equal(o.port, 8765);
      assert.deepEqual(o.clientIps, ['127.0.0.1']);
      assert.equal(o.viaTrustedProxy, false);
      assert.equal(o.sources.clientIp, 'TCP peer');
    });

    it('takes https from the TLS connection itself', () => {
      const o = origin({}, { host: 'app.example.test', 'x-forwarded-proto': 'http' }, '198.51.100.1', true);
      assert.equal(o.scheme, 'https');
      assert.equal(o.port, 443);
    });
  });

  describe('X-Forwarded-For', () => {
    const options = { trustedProxies: ['10.0.0.0/8'], trustedHeaders: SYMFONY_DEFAULT };

    it('walks right to left past trusted hops and ignores a forged left-most entry', () => {
      const o = origin(options, { host: 'a.test', 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.3, 10.0.0.2' }, '10.0.0.1');
      assert.deepEqual(o.clientIps, ['203.0.113.7', '6.6.6.6']);
    });

    it('strips ports and brackets and drops what is not an address', () => {
      const o = origin(options, { host: 'a.test', 'x-forwarded-for': 'unknown, [2001:db8::7]:4711, 203.0.113.7:8080, 010.1.1.1' }, '10.0.0.1');
      assert.deepEqual(o.clientIps, ['203.0.113.7', '2001:db8::7']);
    });

    it('falls back to the left-most trusted address when every hop is trusted', () => {
      const o = origin(options, { host: 'a.test', 'x-forwarded-for': '10.0.0.9, 10.0.0.8' }, '10.0.0.1');
      assert.deepEqual(o.clientIps, ['10.0.0.9']);
    });

    it('reads several X-Forwarded-For lines as one list', () => {
      const o = origin(options, { host: 'a.test', 'x-forwarded-for': ['1.1.1.1', '2.2.2.2'] as unknown as string }, '10.0.0.1');
      assert.equal(o.clientIps[0], '1.1.1.1');
    });
  });

  describe('IPv6 peers', () => {
    it('trusts ::1 under loopback and reads the headers', () => {
      const o = origin({ trustedProxies: ['loopback'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '::1');
      assert.equal(o.scheme, 'https');
      assert.deepEqual(o.clientIps, ['203.0.113.7']);
    });

    it('judges an IPv4-mapped peer as the IPv4 address it is', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '::ffff:127.0.0.1');
      assert.equal(o.viaTrustedProxy, true);
      assert.deepEqual(o.clientIps, ['203.0.113.7']);
    });

    it('reads an IPv4-mapped range as the IPv4 range it maps, as its single addresses are read', () => {
      for (const peer of ['::ffff:127.0.0.2', '127.0.0.2']) {
        assert.equal(origin({ trustedProxies: ['::ffff:127.0.0.0/104'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, peer).viaTrustedProxy, true, peer);
      }
      assert.equal(origin({ trustedProxies: ['::ffff:127.0.0.0/104'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '::ffff:10.0.0.1').viaTrustedProxy, false);
    });

    it('does not trust every IPv4 client through the ::ffff:0:0/96 entry of private_ranges', () => {
      const o = origin({ trustedProxies: ['private_ranges'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '::ffff:198.51.100.4');
      assert.equal(o.viaTrustedProxy, false);
      assert.deepEqual(o.clientIps, ['198.51.100.4']);
    });

    it('trusts a private IPv6 proxy and an IPv6 range', () => {
      assert.equal(origin({ trustedProxies: ['private_ranges'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, 'fd00::5').viaTrustedProxy, true);
      assert.equal(origin({ trustedProxies: ['2001:db8::/32'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '2001:db8::1').viaTrustedProxy, true);
    });
  });

  describe('REMOTE_ADDR', () => {
    it('trusts whatever connects', () => {
      assert.equal(origin({ trustedProxies: ['REMOTE_ADDR'], trustedHeaders: SYMFONY_DEFAULT }, SEED_HEADERS, '198.51.100.23').scheme, 'https');
    });

    it('trusts the peer only, not the hops it forwards: a client cannot choose its address by prepending one', () => {
      const options = { trustedProxies: ['REMOTE_ADDR'], trustedHeaders: SYMFONY_DEFAULT };
      const spoofed = { ...SEED_HEADERS, 'x-forwarded-for': '6.6.6.6, 203.0.113.7' };
      assert.deepEqual(origin(options, spoofed, '172.18.0.5').clientIps, ['203.0.113.7', '6.6.6.6']);
      // The peer's own address in the chain is a trusted hop, as in the reference.
      assert.deepEqual(origin(options, { ...SEED_HEADERS, 'x-forwarded-for': '203.0.113.7, 172.18.0.5' }, '172.18.0.5').clientIps, ['203.0.113.7']);
    });
  });

  describe('X-Forwarded-Host', () => {
    const headers = { host: 'internal:8080', 'x-forwarded-host': 'App.Example.TEST', 'x-forwarded-proto': 'https' };

    it('is ignored unless trusted, leaving the Host header and its port', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, headers);
      assert.equal(o.host, 'internal');
      assert.equal(o.port, 8080);
    });

    it('gives host and port when trusted (the scheme default when it has no port)', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: [...SYMFONY_DEFAULT, 'x-forwarded-host'] }, headers);
      assert.equal(o.host, 'app.example.test');
      assert.equal(o.port, 443);
      assert.equal(o.sources.host, 'X-Forwarded-Host');
    });

    it('gives its own port when X-Forwarded-Port is absent', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: ['x-forwarded-host'] }, { host: 'internal', 'x-forwarded-host': 'app.test:8443' });
      assert.equal(o.port, 8443);
      assert.equal(o.scheme, 'http');
    });

    it('is rejected when it carries characters that could break a URL', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: ['x-forwarded-host'] }, { host: 'a.test', 'x-forwarded-host': 'evil.test/"><x' });
      assert.equal(o.problem, 'invalid-host');
      assert.equal(o.host, 'localhost');
    });
  });

  describe('X-Forwarded-Proto and X-Forwarded-Prefix', () => {
    it('reads the first value and accepts on, ssl and 1 as https', () => {
      for (const value of ['on', 'SSL', '1', 'https, http']) {
        assert.equal(origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, { host: 'a.test', 'x-forwarded-proto': value }).scheme, 'https', value);
      }
      assert.equal(origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, { host: 'a.test', 'x-forwarded-proto': 'http, https' }).scheme, 'http');
    });

    it('keeps a safe trusted prefix without its trailing slash, and drops an unsafe one', () => {
      const options = { trustedProxies: ['127.0.0.1'], trustedHeaders: ['x-forwarded-prefix'] as const };
      assert.equal(origin(options, { host: 'a.test', 'x-forwarded-prefix': '/app/' }).prefix, '/app');
      assert.equal(origin(options, { host: 'a.test', 'x-forwarded-prefix': '/a"><script>' }).prefix, '');
      // A protocol-relative URL would send every generated link and redirect to another host.
      for (const unsafe of ['//evil.example', '///evil.example', '//evil.example/app/']) assert.equal(origin(options, { host: 'a.test', 'x-forwarded-prefix': unsafe }).prefix, '', unsafe);
    });
  });

  describe('the Forwarded header (RFC 7239)', () => {
    const options = { trustedProxies: ['127.0.0.1'], trustedHeaders: ['forwarded'] as const };

    it('reads for, proto and host, with quoted, bracketed and obfuscated values', () => {
      const o = origin(options, { host: 'internal', forwarded: 'for=_hidden, for="[2001:db8:cafe::17]:4711";proto=https;host="App.Test:8443", for=198.51.100.17' });
      assert.equal(o.scheme, 'https');
      assert.equal(o.host, 'app.test');
      assert.equal(o.port, 8443);
      assert.deepEqual(o.clientIps, ['198.51.100.17', '2001:db8:cafe::17']);
      assert.equal(o.sources.clientIp, 'Forwarded');
    });

    it('names the TCP peer as the client IP\'s source when no for= item is an address', () => {
      for (const forwarded of ['for=unknown', 'for=_hidden', 'for=unknown, for=_x']) {
        const o = origin(options, { host: 'a.test', forwarded }, '127.0.0.1');
        assert.deepEqual([o.clientIps, o.sources.clientIp], [['127.0.0.1'], 'TCP peer'], forwarded);
      }
    });

    it('is ignored when only X-Forwarded-* kinds are trusted', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: SYMFONY_DEFAULT }, { host: 'a.test', forwarded: 'for=192.0.2.60;proto=https' });
      assert.equal(o.scheme, 'http');
      assert.deepEqual(o.clientIps, ['127.0.0.1']);
    });

    it('agrees with X-Forwarded-* carrying the same values', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: ['forwarded', ...SYMFONY_DEFAULT] }, { host: 'a.test', forwarded: 'for=192.0.2.60;proto=https', 'x-forwarded-for': '192.0.2.60', 'x-forwarded-proto': 'https' });
      assert.equal(o.problem, undefined);
      assert.deepEqual(o.clientIps, ['192.0.2.60']);
    });
  });

  describe('when trusted Forwarded and X-Forwarded-For disagree', () => {
    it('marks the conflict and falls back to the peer\'s own view without throwing', () => {
      const o = origin({ trustedProxies: ['127.0.0.1'], trustedHeaders: ['forwarded', ...SYMFONY_DEFAULT] }, { host: 'a.test', forwarded: 'for=192.0.2.60', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
      assert.equal(o.problem, 'conflicting-forwarded-headers');
      assert.equal(o.problemDetail, 'X_FORWARDED_FOR');
      assert.equal(o.scheme, 'http');
      assert.equal(o.host, 'a.test');
      assert.deepEqual(o.clientIps, ['127.0.0.1']);
    });

    it('still checks the Host header against the trusted hosts, early and late conflicts alike', () => {
      const options = { trustedProxies: ['127.0.0.1'], trustedHeaders: ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'] as const, trustedHosts: ['^a\\.test$'] };
      const early = origin(options, { host: 'evil.test', forwarded: 'for=1.1.1.1', 'x-forwarded-for': '2.2.2.2' });
      // Late: the forwarded host passed the check, but the conflict falls back to the connection's own Host.
      const late = origin(options, { host: 'evil.test', 'x-forwarded-host': 'a.test', forwarded: 'proto=https', 'x-forwarded-proto': 'http' });
      for (const o of [early, late]) {
        assert.equal(o.problem, 'conflicting-forwarded-headers');
        assert.equal(o.host, 'localhost');
      }
    });
  });

  describe('host validation', () => {
    it('lower-cases the host and keeps IPv6 literals in brackets', () => {
      assert.equal(origin({}, { host: 'APP.Example.Test' }).host, 'app.example.test');
      const o = origin({}, { host: '[::1]:8000' });
      assert.equal(o.host, '[::1]');
      assert.equal(o.port, 8000);
    });

    it('marks an invalid Host and answers with a safe host', () => {
      for (const host of ['a b', 'evil.test/x', 'a.test:80x', 'a..b', 'a.test\r\nX: y']) {
        const o = origin({}, { host });
        assert.equal(o.problem, 'invalid-host', host);
        assert.equal(o.host, 'localhost');
      }
    });

    it('marks a host that matches no trusted host pattern', () => {
      const options = { trustedHosts: ['^app\\.example\\.test$', '^localhost$'] };
      assert.equal(origin(options, { host: 'APP.example.test' }).problem, undefined);
      const o = origin(options, { host: 'evil.test' });
      assert.equal(o.problem, 'untrusted-host');
      assert.equal(o.problemDetail, 'evil.test');
      assert.equal(o.host, 'localhost');
      // The profiler's request panel shows the source: localhost did not come from the Host header.
      assert.equal(o.sources.host, 'fallback for the refused host');
    });

    it('checks the server name too when there is no Host header, as the reference checks its SERVER_NAME', () => {
      assert.equal(origin({ trustedHosts: ['^localhost$'] }, {}).problem, undefined);
      const o = origin({ trustedHosts: ['^nope$'] }, { host: '' });
      assert.equal(o.problem, 'untrusted-host');
      assert.equal(o.problemDetail, 'localhost');
    });
  });

  describe('forwarded addresses, read as PHP\'s FILTER_VALIDATE_IP reads them', () => {
    const options = { trustedProxies: ['10.0.0.1'], trustedHeaders: SYMFONY_DEFAULT };

    it('skips a zone, and IPv4 spelt in hex or octal inside an IPv6 address, leaving the peer as client', () => {
      for (const forged of ['1.2.3.4%eth0', '::ffff:0x1.2.3.4', '::ffff:01.2.3.4', 'fe80::1%eth0']) {
        assert.deepEqual(origin(options, { host: 'a.test', 'x-forwarded-for': forged }, '10.0.0.1').clientIps, ['10.0.0.1'], forged);
      }
      assert.deepEqual(origin(options, { host: 'a.test', 'x-forwarded-for': '::ffff:1.2.3.4' }, '10.0.0.1').clientIps, ['1.2.3.4']);
    });

    it('still judges a link-local peer by its address, without the zone the socket reports', () => {
      const o = origin({ trustedProxies: ['fe80::/10'], trustedHeaders: SYMFONY_DEFAULT }, { host: 'a.test', 'x-forwarded-for': '203.0.113.7' }, 'fe80::1%eth0');
      assert.deepEqual(o.clientIps, ['203.0.113.7']);
      assert.equal(origin({}, { host: 'a.test' }, 'fe80::1%eth0').clientIps[0], 'fe80::1');
    });
  });

  describe('configuration errors', () => {
    it('throws KEEL_ERR_CONFIG_TRUSTED_PROXY at compile time for an invalid entry', () => {
      // Ranges spelt short, octal or hex: ipaddr.js reads `172.16/12` as 172.0.0.0/12 (public space).
      for (const entry of ['proxy.local', '10.0.0.0/33', '1.2.3', '172.16/12', '010.0.0.0/8', '192.168.1/24', '10/8', '0x0a.0.0.0/8', '10.0.0.0/8x', 'fe80::%eth0/10']) {
        assert.throws(() => createOriginResolver({ trustedProxies: [entry] }), { code: 'KEEL_ERR_CONFIG_TRUSTED_PROXY' }, entry);
      }
    });
  });
});

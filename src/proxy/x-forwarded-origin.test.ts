import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Request } from '../http/request.js';
import { createOriginResolver, type TrustedHeader } from './trusted-proxies.js';

// Values a proxy or a client may put in X-Forwarded-* headers: lists, blanks, ports, brackets, junk.
const address = fc.constantFrom('203.0.113.7', '10.0.0.2', '127.0.0.1', '::1', '[2001:db8::1]:8080', '198.51.100.4:443', 'unknown', '');
const list = fc.tuple(fc.array(address, { maxLength: 4 }), fc.constantFrom(',', ', ', ' , ')).map(([items, separator]) => items.join(separator));
const hostValue = fc.constantFrom('app.example.test', 'App.Example.Test:8443', '[::1]:8080', 'bad host', 'a..b', '', ' , other.test');
const header = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
const trustable: TrustedHeader[] = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-prefix'];

describe('X-Forwarded-* headers without a Forwarded header', () => {
  it('give the origin an empty Forwarded header gives', () => {
    fc.assert(
      fc.property(
        fc.record({
          for: header(list),
          host: header(hostValue),
          proto: header(fc.constantFrom('https', 'HTTP', 'on', 'ssl, http', ' ', 'wss')),
          port: header(fc.constantFrom('443', '8443', '0', '70000', 'x', ', 81')),
          prefix: header(fc.constantFrom('/app/', '/a b', ', /x', '//')),
          hostHeader: header(hostValue),
        }),
        fc.subarray(trustable),
        fc.constantFrom('127.0.0.1', '10.0.0.2', '::1', '::ffff:127.0.0.1'),
        fc.boolean(),
        fc.subarray(['^app\\.example\\.test$', 'other']),
        (values, trusted, peer, encrypted, trustedHosts) => {
          const headers: IncomingHttpHeaders = {};
          if (values.hostHeader !== undefined) headers.host = values.hostHeader;
          for (const kind of ['for', 'host', 'proto', 'port', 'prefix'] as const) {
            const value = values[kind];
            if (value !== undefined) headers[`x-forwarded-${kind}`] = value;
          }
          const resolveOrigin = createOriginResolver({ trustedProxies: ['loopback', '10.0.0.0/8'], trustedHeaders: [...trusted, 'forwarded'], trustedHosts });
          const resolve = (h: IncomingHttpHeaders) => new Request({ method: 'GET', target: '/', headers: h, remoteAddress: peer, encrypted, resolveOrigin }).origin;
          // A present but empty Forwarded header means no Forwarded element.
          assert.deepEqual(resolve(headers), resolve({ ...headers, forwarded: '' }));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

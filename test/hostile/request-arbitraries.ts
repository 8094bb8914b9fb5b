import fc from 'fast-check';

/** Markup that must never come back unescaped in an HTML page. */
export const MARKUP_PROBES = ['<svg/onload=KEELX>', '<img src=x onerror=KEELX>', '"><script>KEELX</script>', "'-->KEELX<!--"] as const;

/** Ways of spelling a walk out of a directory, raw and encoded. */
export const TRAVERSALS = ['..', '../..', '..%2F..', '%2e%2e%2f', '..%5c..', '%252e%252e%252f', '....//', '..;', '%c0%ae%c0%ae/', '/etc/passwd', '..%00'] as const;

const SAFE = 'abcxyzABCXYZ0189-._~!$&\'()*+,;=:@';
const hex = fc.constantFrom(...'0123456789abcdefABCDEF');

const percent = fc.oneof(
  fc.tuple(hex, hex).map(([a, b]) => `%${a}${b}`),
  // Broken or hostile encodings: truncated, non-hex, NUL, CR LF, overlong and invalid UTF-8, RTL override.
  fc.constantFrom('%', '%z', '%zz', '%G0', '%00', '%0d%0a', '%0D%0AInjected:%20yes', '%FF', '%C0%AE', '%ED%A0%80', '%E2%80%AE', '%2F', '%5C', '%3C%2F'),
);

// One raw byte, sent as latin1: mostly 0x80–0xFF (invalid UTF-8 on its own, which the parser lets through
// to the application), sometimes any of the 256, control characters included (which it refuses).
const rawByte = fc
  .oneof({ weight: 4, arbitrary: fc.integer({ min: 0x80, max: 0xff }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x7f }) })
  .map((code) => String.fromCharCode(code));

const segmentPart = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...SAFE), maxLength: 12 }) },
  { weight: 3, arbitrary: percent },
  // A space would end the request-target: the probes go in with it encoded, the rest raw.
  { weight: 2, arbitrary: fc.constantFrom(...TRAVERSALS, '.', ...MARKUP_PROBES.map((probe) => probe.replaceAll(' ', '%20'))) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 9000 }).map((n) => 'L'.repeat(n)) },
);

const segment = fc.array(segmentPart, { maxLength: 5 }).map((parts) => parts.join(''));

/** A request-target: segments of safe text, encodings, raw bytes, dot segments and markup, maybe a query. */
export const requestTarget = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constant('/') }, fc.constantFrom('/_profiler/', '/blog/', '/items/', '/api/', '//', '/%2F', '')),
    fc.array(segment, { maxLength: 6 }),
    fc.option(fc.array(segmentPart, { maxLength: 4 }).map((parts) => `?${parts.join('')}`), { nil: '' }),
  )
  .map(([start, segments, query]) => `${start}${segments.join('/')}${query}`)
  .chain((target) =>
    // One case in six carries a raw byte somewhere, which the parser refuses with a 400 before keel sees it.
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(target) },
      fc.tuple(rawByte, fc.nat({ max: target.length })).map(([byte, at]) => `${target.slice(0, at)}${byte}${target.slice(at)}`),
    ),
  );

// node's parser knows a fixed list of methods and answers 400 to any other, so unknown ones are rarer.
export const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
  fc.constantFrom('TRACE', 'CONNECT', 'PROPFIND', 'get', 'GeT', 'M-SEARCH', 'PURGE', 'QUERY'),
  fc.stringMatching(/^[A-Z_-]{1,16}$/),
);

/** A header value: printable text, obs-text, markup, CR LF attempts and, sometimes, a control byte. */
export const headerValue = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 2, arbitrary: fc.constantFrom(...MARKUP_PROBES, ...TRAVERSALS) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('a\r\nX-Injected: yes', 'a\nX-Injected: yes', '\t', '', 'a\rb', 'a\x00b', 'a\x7fb') },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 6000 }).map((n) => 'v'.repeat(n)) },
);

const ip = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom('unknown', '_hidden', '203.0.113.7:8080', '[2001:db8::1]:1', '127.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '', ' , ,'),
);

/** X-Forwarded-For: lists of addresses, garbage and markup. */
export const forwardedFor = fc.oneof(
  { weight: 3, arbitrary: fc.array(ip, { minLength: 1, maxLength: 6 }).map((ips) => ips.join(', ')) },
  { weight: 1, arbitrary: headerValue },
);

export const host = fc.oneof(
  fc.constantFrom('app.example.test', 'app.example.test:8443', 'localhost', '127.0.0.1:1', '[::1]:80', 'APP.EXAMPLE.TEST'),
  fc.domain(),
  headerValue,
);

export const accept = fc.oneof(
  fc.constantFrom('text/html', 'application/json', 'application/xml', '*/*', 'application/problem+json', 'text/html;q=0, application/json;q=1'),
  fc.array(fc.tuple(fc.constantFrom('text', 'application', '*', 'x'), fc.constantFrom('html', 'json', 'xml', '*', 'ld+json'), fc.double({ min: -1, max: 2, noNaN: false })), { maxLength: 8 })
    .map((items) => items.map(([t, s, q]) => `${t}/${s};q=${q}`).join(', ')),
  headerValue,
);

/** The optional request headers a hostile client sets; each one present or not. */
export const hostileHeaders = fc.record(
  {
    host,
    referer: headerValue,
    accept,
    'x-forwarded-for': forwardedFor,
    'x-forwarded-host': host,
    'x-forwarded-proto': fc.oneof(fc.constantFrom('https', 'http', 'HTTPS', 'ftp', 'https, http', 'on'), headerValue),
    'x-forwarded-port': fc.oneof(fc.constantFrom('443', '0', '65536', '-1', '8443, 443', '99999999999'), headerValue),
    'x-forwarded-prefix': headerValue,
    forwarded: fc.oneof(fc.constantFrom('for=1.2.3.4;proto=https', 'for="[2001:db8::1]";host=evil.test', 'for=_x;by=y'), headerValue),
    'x-real-ip': ip,
  },
  { requiredKeys: [] },
);

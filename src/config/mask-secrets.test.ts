import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isSecretName, maskSecrets, maskSettingSecrets, maskSettings, maskTextSecrets } from './mask-secrets.js';

describe('isSecretName', () => {
  it('answers the same when asked again, whatever the case, keeping the profiler headers public', () => {
    for (let round = 0; round < 2; round++) {
      assert.equal(isSecretName('Authorization'), true);
      assert.equal(isSecretName('x-api-KEY'), true);
      assert.equal(isSecretName('APP_SECRET'), true);
      assert.equal(isSecretName('accept-language'), false);
      assert.equal(isSecretName('X-Debug-Token'), false);
      assert.equal(isSecretName('x-previous-debug-token'), false);
    }
  });

  it('stays right past the bound of remembered names (names come from clients)', () => {
    for (let i = 0; i < 3000; i++) assert.equal(isSecretName(`x-custom-${i}${i % 2 === 0 ? '-token' : ''}`), i % 2 === 0);
    assert.equal(isSecretName('cookie'), true);
  });
});

describe('maskSecrets', () => {
  it('keeps a member named __proto__ as a member, masked like any other, as JSON.parse reads one', () => {
    const masked = maskSecrets(JSON.parse('{"a":1,"__proto__":{"token":"t","x":"y"}}') as unknown);
    assert.equal(JSON.stringify(masked), '{"a":1,"__proto__":{"token":"******","x":"y"}}');
    assert.equal(Object.getPrototypeOf(masked), Object.prototype);
  });

  it('masks the password of a URL under any key, as the Redis storage settings hold one', () => {
    const config = { profiler: { storage: 'redis://:s3cret@cache:6379/0' }, rateLimiterStorage: { url: 'rediss://app:p@ss@cache:6380' }, home: 'https://example.test/a:b@c' };
    assert.deepEqual(maskSecrets(config), { profiler: { storage: 'redis://:******@cache:6379/0' }, rateLimiterStorage: { url: 'rediss://app:******@cache:6380' }, home: 'https://example.test/a:b@c' });
    assert.equal(maskTextSecrets('redis://cache:6379'), 'redis://cache:6379');
    // A user without password is the credential of a DSN (Symfony's mailer and notifier), or a token.
    assert.equal(maskTextSecrets('redis://user@cache:6379'), 'redis://******@cache:6379');
    assert.deepEqual(maskSecrets({ MAILER_DSN: 'sendgrid://SG.key123@default', GIT_URL: 'https://ghp_tok123@github.com/o/r.git', MAILGUN_DSN: 'mailgun+api://MGKEY123:example.com@default' }), {
      MAILER_DSN: 'sendgrid://******@default',
      GIT_URL: 'https://******@github.com/o/r.git',
      MAILGUN_DSN: 'mailgun+api://MGKEY123:******@default',
    });
  });

  it('masks passphrases, signatures and auth values, not words that only contain auth', () => {
    assert.deepEqual(maskSecrets({ JWT_PASSPHRASE: 'p', X_AMZ_SIGNATURE: 's', AUTH: 'a', 'x-auth': 'a', AUTHOR: 'Ada' }), { JWT_PASSPHRASE: '******', X_AMZ_SIGNATURE: '******', AUTH: '******', 'x-auth': '******', AUTHOR: 'Ada' });
    assert.equal(maskTextSecrets('https://x.test/?auth=fb123&X-Amz-Signature=abc&author=Ada'), 'https://x.test/?auth=******&X-Amz-Signature=******&author=Ada');
  });

  it('masks a password given in the query of a URL (ioredis reads redis://host/0?password=…)', () => {
    assert.deepEqual(maskSecrets({ url: 'redis://127.0.0.1:6379/0?password=RLPW1&db=2' }), { url: 'redis://127.0.0.1:6379/0?password=******&db=2' });
    assert.deepEqual(maskSecrets({ APP_SECRET: '', API_TOKEN: 't' }), { APP_SECRET: '', API_TOKEN: '******' });
    assert.deepEqual(maskSecrets({ DB_PASS: 'p', 'smtp-pwd': 'p', AWS_CREDENTIALS: 'c', PASSTHROUGH: 'on', BYPASS_CACHE: '1' }), { DB_PASS: '******', 'smtp-pwd': '******', AWS_CREDENTIALS: '******', PASSTHROUGH: 'on', BYPASS_CACHE: '1' });
    // A mistyped scheme still names a password.
    assert.equal(maskTextSecrets('RATE_LIMIT_STORAGE="redis//:topsecret@h:6379"'), 'RATE_LIMIT_STORAGE="redis//:******@h:6379"');
  });
});

describe('maskTextSecrets', () => {
  // What the masking of a password holding `/`, `?` or `#` does, written plainly: the same pattern wanting
  // its `@`, which scans to the URL's end again from each `//` that has none after it.
  const cutPassword = /(\/\/[^:@/?#[\s"'<>]*:)(?=\d*[^\d@/?#\s"'<>])[^@/?#\s"'<>]*[/?#][^\s"'<>]*@/g;

  it('masks a secret query value whatever separates its name from the rest of the text', () => {
    assert.equal(maskTextSecrets('GET /login?pass=hunter2&page=1'), 'GET /login?pass=******&page=1');
    assert.equal(maskTextSecrets('from "https://x.test/?a=1&pwd=p"'), 'from "https://x.test/?a=1&pwd=******"');
  });

  it('masks a pair starting the text, a form body quoted without its `?`, as it masks the pairs after it', () => {
    assert.equal(maskTextSecrets('password=hunter2&user=bob'), 'password=******&user=bob');
    assert.equal(maskTextSecrets('user=bob&password=hunter2'), 'user=bob&password=******');
    // A URL starting the text is no name: its parameters are read from its `?`.
    assert.equal(maskTextSecrets('https://key.test/?page=1&token=t'), 'https://key.test/?page=1&token=******');
  });

  it('masks a parameter whose value is a URL with a secret of its own, encoded once or more', () => {
    assert.equal(maskTextSecrets('http://h.test/about?next=https%3A%2F%2Fu%3Apw1%40x.test%2F&a=1'), 'http://h.test/about?next=******&a=1');
    assert.equal(maskTextSecrets('http://h.test/about?next=%2Fa%3Faccess_token%3Dabc'), 'http://h.test/about?next=******');
    assert.equal(maskTextSecrets('http://h.test/?next=%252Fa%253Ftoken%253Dabc&page=2'), 'http://h.test/?next=******&page=2');
    // Encoded values without a secret, or not decodable, stay as they are.
    assert.equal(maskTextSecrets('http://h.test/?q=caf%C3%A9&next=%2Fa%3Fpage%3D2&x=%E0%A4%A'), 'http://h.test/?q=caf%C3%A9&next=%2Fa%3Fpage%3D2&x=%E0%A4%A');
  });

  it('masks the password of every URL in a text, with or without a scheme', () => {
    assert.equal(maskTextSecrets('from "https://u:pw@x.test/?token=abc&page=2" and redis//:secret@h'), 'from "https://u:******@x.test/?token=******&page=2" and redis//:******@h');
  });

  it('masks what the earlier pattern, which matched an optional scheme first, masked', () => {
    const earlier = /((?:[a-z][a-z0-9+.-]*:)?\/\/[^:@/?#\s"'<>]*:)[^/?#\s"'<>]*@/gi;
    fc.assert(
      fc.property(fc.stringMatching(/^[aZ1+.:/@ "?=-]{0,24}$/), (text) => {
        // Only the userinfo part: no `=`, so query masking does not run.
        const input = text.replaceAll('=', '');
        // …and now a password holding `/`, `?` or `#`, and a user given without password (see the DSN case above).
        const expected = input.includes('@') && input.includes('//') ? input.replace(earlier, '$1******@').replace(cutPassword, '$1******@').replace(/(\/\/)[^:@/?#\s"'<>]+@/g, '$1******@') : input;
        assert.equal(maskTextSecrets(input), expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('masks the query values the earlier pattern, which matched only names followed by `=`, masked', () => {
    // With the pair that may start the text, which the earlier pattern left as it was.
    const earlier = /(^(?=[^=&#?/\s"'<>]+=)|[?&])([^=&#\s"'<>]+)=((?:[^&#"']|["'](?![\s)\]},;]|$))*)/g;
    const secretNamed = (name: string): boolean => isSecretName(name);
    fc.assert(
      fc.property(fc.stringMatching(/^(?:[?&=a#" ]|token|pass){0,16}$/), (text) => {
        const expected = text.replace(earlier, (pair, separator: string, name: string) => (secretNamed(name) ? `${separator}${name}=******` : pair));
        assert.equal(maskTextSecrets(text), expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('masks a password holding an unencoded /, ? or # up to the last `@` before the end of its URL', () => {
    const cases: [string, string][] = [
      ['db at postgres://app:ab/cd+ef==@db', 'db at postgres://app:******@db'],
      ['redis://user:pa/ss@host:6379/0', 'redis://user:******@host:6379/0'],
      ['redis://:pa?ss@host/db', 'redis://:******@host/db'],
      ['mysql://app:pa#ss@db/app', 'mysql://app:******@db/app'],
      ['//app:a/b@c@db/app', '//app:******@db/app'],
      // The URL ends at a space or a quote: an address after it is no part of the password.
      ['postgres://app:ab/cd@db failed, mail ops@example.com', 'postgres://app:******@db failed, mail ops@example.com'],
      ['{"url":"postgres://app:ab/cd@db/app","to":"ops@example.com"}', '{"url":"postgres://app:******@db/app","to":"ops@example.com"}'],
      // A path holding an `@` after it hides the host rather than show part of the password.
      ['postgres://app:ab/cd@db/@x', 'postgres://app:******@x'],
    ];
    for (const [text, masked] of cases) assert.equal(maskTextSecrets(text), masked, text);
  });

  it('leaves a host with its port, an IPv6 host and a path holding `@` as they are', () => {
    for (const text of ['see https://registry.example.com:4873/@scope/pkg or ops@example.com', 'http://[::1]:8080/@me', 'http://[::1]/@me', 'at file:///C:/app/node_modules/@scope/pkg/index.js:1:2', 'https://example.test/a:b@c']) {
      assert.equal(maskTextSecrets(text), text);
    }
  });

  it('masks a password holding /, ? or # as the plain pattern does', () => {
    // Pieces that make near-matches likely: a user or none before a password, a port, an IPv6 host.
    const piece = fc.constantFrom('//a:', '//:', '//[:', 'x/', 'x#', '1?', '1/', 'a', '@', ' ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 4, maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const expected = text.includes('@') && text.includes('//') ? text.replace(/(\/\/[^:@/?#\s"'<>]*:)[^/?#\s"'<>]*@/g, '$1******@').replace(cutPassword, '$1******@').replace(/(\/\/)[^:@/?#\s"'<>]+@/g, '$1******@') : text;
        assert.equal(maskTextSecrets(text), expected);
      }),
      { numRuns: 3000 },
    );
  });

  // Both patterns used to scan to the end of a run from each of its characters (quadratic): ~100 ms for
  // 15 kB.
  // A child process does the masking, so that a hang fails the test instead of holding the suite.
  it('goes through a long text holding `@` and `//`, or many `?`, in one pass', () => {
    const script = `
      import { maskTextSecrets } from ${JSON.stringify(new URL('./mask-secrets.ts', import.meta.url).href)};
      const url = maskTextSecrets('@//=' + 'a'.repeat(2_000_000) + ' //u:pw@h');
      const query = maskTextSecrets('?a'.repeat(1_000_000) + ' ?token=x');
      process.stdout.write(url.slice(-12) + ' ' + query.slice(-13));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.signal, null, 'the masking did not end within 20 s');
    assert.equal(child.stdout, '//u:******@h ?token=******', child.stderr);
  });

  // The plain pattern above takes some 13 s for 200 kB of `//a:x` and grows as the square of the length:
  // some 20 minutes for the 2 MB here.
  it('goes through a long text of URLs with a password cut by `/`, `?` or `#` but no `@` after them, in one pass', () => {
    const script = `
      import { maskTextSecrets } from ${JSON.stringify(new URL('./mask-secrets.ts', import.meta.url).href)};
      const slash = maskTextSecrets('@ ' + '//a:x'.repeat(400_000) + ' //u:p/w@h');
      const hash = maskTextSecrets('@ ' + '//:p#'.repeat(400_000) + ' //:p?w@h');
      process.stdout.write(slash.slice(-12) + ' ' + hash.slice(-11));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.signal, null, 'the masking did not end within 20 s');
    assert.equal(child.stdout, '//u:******@h //:******@h', child.stderr);
  });
});

describe('maskSettingSecrets', () => {
  // A setting's value is the whole URL or DSN: what a text would take for its end (a quote, a space, `<`) is
  // part of the password there, as PHP's parse_url reads it.
  it('masks the whole userinfo of a URL or DSN setting, whatever it holds, and the password pairs of a PDO DSN', () => {
    const cases: [string, string][] = [
      ['mysql://app:Pa"ss<w0rd>@db:3306/app', 'mysql://app:******@db:3306/app'],
      ["smtp://user:it's-secret@smtp.example.com:25", 'smtp://user:******@smtp.example.com:25'],
      ['redis://:with space@cache', 'redis://:******@cache'],
      ['redis:/:s3cret@cache:6379', 'redis:/:******@cache:6379'],
      ['sendgrid://KEY@default', 'sendgrid://******@default'],
      ['mysql:host=db;dbname=app;user=root;password=pdopass', 'mysql:host=db;dbname=app;user=root;password=******'],
      ['https://u:p@x.test/?token=abc&page=2', 'https://u:******@x.test/?token=******&page=2'],
    ];
    for (const [value, masked] of cases) assert.equal(maskSettingSecrets(value), masked, value);
  });

  it('leaves settings without secrets as they are, an `@` in a path included', () => {
    for (const value of ['https://registry.example.com:4873/@scope/pkg', 'https://example.com/@foo', 'redis://127.0.0.1:6379/0', 'pgsql:host=db;port=5432;dbname=app', 'mailto:ops@example.com', 'memory']) {
      assert.equal(maskSettingSecrets(value), value);
    }
  });

  it('masks a password holding an unencoded /, ? or #, which ends no host[:port] before it, up to the last `@`', () => {
    const cases: [string, string][] = [
      ['postgres://app:ab/cd+ef==@db:5432/app', 'postgres://app:******@db:5432/app'],
      ['mysql://app:pa#ss@db/app', 'mysql://app:******@db/app'],
      ['redis://:p?ss@cache:6379', 'redis://:******@cache:6379'],
    ];
    for (const [value, masked] of cases) assert.equal(maskSettingSecrets(value), masked, value);
    assert.deepEqual(maskSettings({ DATABASE_URL: 'postgres://app:ab/cd@db/app' }), { DATABASE_URL: 'postgres://app:******@db/app' });
  });

  it("takes a refused URL's password to its last `@`: its `/` or `#` may be what made it invalid", () => {
    assert.equal(maskSettingSecrets('redis://:pa/ss@host', { refused: true }), 'redis://:******@host');
    assert.equal(maskSettingSecrets('redis://:pa#ss@host:99999', { refused: true }), 'redis://:******@host:99999');
  });

  it('masks every setting of a record so, secret-named ones whole', () => {
    assert.deepEqual(maskSettings({ DATABASE_URL: 'mysql://app:Pa"ss<w0rd>@db/app', APP_SECRET: 'x', PORT: '8000', nested: { CACHE_DSN: 'redis://:with space@cache' } }), {
      DATABASE_URL: 'mysql://app:******@db/app',
      APP_SECRET: '******',
      PORT: '8000',
      nested: { CACHE_DSN: 'redis://:******@cache' },
    });
  });
});

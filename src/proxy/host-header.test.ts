import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeHost, parseAuthority } from './host-header.js';

describe('parseAuthority', () => {
  it('reads a host and its port, lower-cased', () => {
    assert.deepEqual(parseAuthority(' App.Example.test:8443 '), { host: 'app.example.test', port: 8443 });
    assert.deepEqual(parseAuthority('example.test.'), { host: 'example.test.', port: undefined });
    assert.deepEqual(parseAuthority('[::1]:80'), { host: '[::1]', port: 80 });
    assert.deepEqual(parseAuthority(''), { host: '', port: undefined });
  });

  it('reads an empty port as none, as RFC 3986 writes a port (*DIGIT) and the reference takes it', () => {
    assert.deepEqual(parseAuthority('App.test:'), { host: 'app.test', port: undefined });
    assert.deepEqual(parseAuthority('[::1]:'), { host: '[::1]', port: undefined });
  });

  it('refuses what is no host', () => {
    for (const value of ['a..b', '.a', 'a b', 'a/b', 'a:b', 'a:99999', '[::1', 'é.test', 'a.b:1:2']) assert.equal(parseAuthority(value), undefined, value);
  });

  it('refuses what the reference takes but no URL can hold: a name ending in a number that is no IPv4 address, an IPv6 literal that is no address', () => {
    for (const value of ['1.2.3.4.5', '1.2.3.256', 'a.1', '[.]', '[::1::2]', '[fffff::1]', '[:]']) assert.equal(parseAuthority(value), undefined, value);
    for (const value of ['1.2.3.4', '[::ffff:1.2.3.4]', 'a_b.test', '127.0.0.1:8000']) assert.notEqual(parseAuthority(value), undefined, value);
  });

  it('accepts exactly the hosts the reference accepts, nothing left once every label and its dot is removed, that a URL can hold', () => {
    const reference = (host: string): boolean => host.replace(/[a-z0-9_-]+\.?/g, '') === '';
    const urlHost = (host: string): boolean => host === '' || URL.canParse(`http://${host}`);
    fc.assert(
      fc.property(fc.stringMatching(/^[a0_.!-]{0,12}$/), (host) => {
        assert.equal(parseAuthority(host) !== undefined, reference(host) && urlHost(host), JSON.stringify(host));
      }),
      { numRuns: 2000 },
    );
  });

  // The pattern used to backtrack exponentially on such values: 40 characters would have held the event
  // loop for hours. A child process does the parsing, so that such a hang is stopped and fails the test
  // instead of holding the whole suite (a blocked event loop lets no test timeout fire).
  it('refuses a long run of label characters that fails at its end, in one pass', () => {
    const script = `
      import { parseAuthority } from ${JSON.stringify(new URL('./host-header.ts', import.meta.url).href)};
      const values = ['a'.repeat(40) + '!', 'a-'.repeat(40) + '!', 'a.'.repeat(40) + 'a..', 'a'.repeat(16000) + '!'];
      process.stdout.write(JSON.stringify(values.map((value) => parseAuthority(value) ?? null)));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.signal, null, 'the parsing did not end within 20 s');
    assert.equal(child.stdout, '[null,null,null,null]', child.stderr);
  });
});

describe('describeHost', () => {
  it('names a refused host as the reference does: trimmed, lower-cased, without its port', () => {
    assert.equal(describeHost(' Bad Host:8080 '), 'bad host');
    assert.equal(describeHost('a.test:abc'), 'a.test:abc');
  });

  it('keeps the port when the port is what keel refuses, so that the message does not name a valid host', () => {
    assert.equal(describeHost('App.test:99999'), 'app.test:99999');
    assert.equal(describeHost('a.test:0123456'), 'a.test:0123456');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeaderBag } from '../http/header-bag.js';
import { addProfilerNonces, removeCspHeaders } from './content-security-policy.js';

function policyAfter(headers: Record<string, string>): { headers: HeaderBag; nonces: ReturnType<typeof addProfilerNonces> } {
  const bag = new HeaderBag(headers);
  return { headers: bag, nonces: addProfilerNonces(bag) };
}

describe('addProfilerNonces', () => {
  it('changes nothing, and makes no nonce, without a policy', () => {
    const { headers, nonces } = policyAfter({ 'Content-Type': 'text/html' });
    assert.equal(nonces, undefined);
    assert.deepEqual([...headers.flatLines()], ['Content-Type', 'text/html']);
  });

  it('adds \'unsafe-inline\' and the nonces to the script and style directives that forbid inline content', () => {
    const { headers, nonces } = policyAfter({ 'Content-Security-Policy': "script-src 'self'; style-src 'self' https://cdn.test" });
    assert.match(nonces!.style, /^[0-9a-f]{32}$/);
    assert.notEqual(nonces!.script, nonces!.style);
    assert.equal(headers.get('content-security-policy'), `script-src 'self' 'unsafe-inline' 'nonce-${nonces!.script}'; style-src 'self' https://cdn.test 'unsafe-inline' 'nonce-${nonces!.style}'`);
  });

  it('copies default-src into the missing directives, and replaces a lone \'none\', which is only valid alone', () => {
    const self = policyAfter({ 'Content-Security-Policy': "default-src 'self'" });
    const { script, style } = self.nonces!;
    assert.equal(self.headers.get('content-security-policy'), `default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-${script}'; style-src 'self' 'unsafe-inline' 'nonce-${style}'`);
    const none = policyAfter({ 'Content-Security-Policy': "default-src 'none'" });
    assert.equal(none.headers.get('content-security-policy'), `default-src 'none'; script-src 'unsafe-inline' 'nonce-${none.nonces!.script}'; style-src 'unsafe-inline' 'nonce-${none.nonces!.style}'`);
  });

  it('leaves a directive that already allows inline content alone, unless a hash or nonce makes browsers ignore that', () => {
    const open = policyAfter({ 'Content-Security-Policy': "default-src 'self' 'unsafe-inline'" });
    assert.equal(open.nonces, undefined);
    assert.equal(open.headers.get('content-security-policy'), "default-src 'self' 'unsafe-inline'");
    const hashed = policyAfter({ 'Content-Security-Policy': "style-src 'unsafe-inline' 'sha256-abc='" });
    assert.equal(hashed.headers.get('content-security-policy'), `style-src 'unsafe-inline' 'sha256-abc=' 'nonce-${hashed.nonces!.style}'`);
  });

  it('treats the -elem directives only when present, and every policy header alike', () => {
    const { headers, nonces } = policyAfter({ 'Content-Security-Policy-Report-Only': "default-src 'self'; style-src-elem 'self'", 'X-Content-Security-Policy': "script-src 'none'" });
    const { script, style } = nonces!;
    assert.equal(headers.get('content-security-policy-report-only'), `default-src 'self'; style-src-elem 'self' 'unsafe-inline' 'nonce-${style}'; script-src 'self' 'unsafe-inline' 'nonce-${script}'; style-src 'self' 'unsafe-inline' 'nonce-${style}'`);
    assert.equal(headers.get('x-content-security-policy'), `script-src 'unsafe-inline' 'nonce-${script}'`);
  });
  it('reads directive names and keywords in any case, sources split by any whitespace, and obeys the first of a repeated directive, as browsers do', () => {
    const upper = policyAfter({ 'Content-Security-Policy': "default-src 'none'; STYLE-SRC https://cdn.test" });
    const { script, style } = upper.nonces!;
    assert.equal(upper.headers.get('content-security-policy'), `default-src 'none'; STYLE-SRC https://cdn.test 'unsafe-inline' 'nonce-${style}'; script-src 'unsafe-inline' 'nonce-${script}'`);
    const tab = policyAfter({ 'Content-Security-Policy': "default-src 'none'; style-src\t'self'" });
    assert.equal(tab.headers.get('content-security-policy'), `default-src 'none'; style-src 'self' 'unsafe-inline' 'nonce-${tab.nonces!.style}'; script-src 'unsafe-inline' 'nonce-${tab.nonces!.script}'`);
    // A nonce would make browsers ignore the page's own 'UNSAFE-INLINE': keywords are case-insensitive too.
    const open = policyAfter({ 'Content-Security-Policy': "style-src 'self' 'UNSAFE-INLINE'" });
    assert.equal(open.nonces, undefined);
    assert.equal(open.headers.get('content-security-policy'), "style-src 'self' 'UNSAFE-INLINE'");
    const hashed = policyAfter({ 'Content-Security-Policy': "style-src 'Unsafe-Inline' 'SHA256-abc='" });
    assert.equal(hashed.headers.get('content-security-policy'), `style-src 'Unsafe-Inline' 'SHA256-abc=' 'nonce-${hashed.nonces!.style}'`);
    // The second style-src is ignored by browsers: the first one is the one to open to the toolbar.
    const twice = policyAfter({ 'Content-Security-Policy': "style-src 'self'; style-src 'unsafe-inline'" });
    assert.equal(twice.headers.get('content-security-policy'), `style-src 'self' 'unsafe-inline' 'nonce-${twice.nonces!.style}'; style-src 'unsafe-inline'`);
  });

  it('gives each policy of a comma-separated list its nonces, and no policy another\'s directives', () => {
    const { headers, nonces } = policyAfter({ 'Content-Security-Policy': "default-src 'self', style-src 'none', img-src *" });
    const { script, style } = nonces!;
    assert.equal(
      headers.get('content-security-policy'),
      `default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-${script}'; style-src 'self' 'unsafe-inline' 'nonce-${style}', style-src 'unsafe-inline' 'nonce-${style}', img-src *`,
    );
  });

  it('leaves out the empty directive of a trailing semicolon', () => {
    const { headers, nonces } = policyAfter({ 'Content-Security-Policy': "style-src 'self';" });
    assert.equal(headers.get('content-security-policy'), `style-src 'self' 'unsafe-inline' 'nonce-${nonces!.style}'`);
  });
});

describe('removeCspHeaders', () => {
  it('removes the three policy headers and nothing else', () => {
    const headers = new HeaderBag({ 'Content-Security-Policy': "default-src 'none'", 'Content-Security-Policy-Report-Only': 'x', 'X-Content-Security-Policy': 'y', 'X-Frame-Options': 'DENY' });
    removeCspHeaders(headers);
    assert.deepEqual([...headers.flatLines()], ['X-Frame-Options', 'DENY']);
  });
});

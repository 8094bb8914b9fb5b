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

  it('copies default-src into the missing directives, leaving out a lone \'none\'', () => {
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
    assert.equal(headers.get('x-content-security-policy'), `script-src 'none' 'unsafe-inline' 'nonce-${script}'`);
  });
});

describe('removeCspHeaders', () => {
  it('removes the three policy headers and nothing else', () => {
    const headers = new HeaderBag({ 'Content-Security-Policy': "default-src 'none'", 'Content-Security-Policy-Report-Only': 'x', 'X-Content-Security-Policy': 'y', 'X-Frame-Options': 'DENY' });
    removeCspHeaders(headers);
    assert.deepEqual([...headers.flatLines()], ['X-Frame-Options', 'DENY']);
  });
});

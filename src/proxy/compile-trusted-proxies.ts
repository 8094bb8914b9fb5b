import ipaddr from 'ipaddr.js';
import { memoizeBounded } from '../internal/bounded-map.js';

/** Symfony's `private_ranges` (Request::PRIVATE_SUBNETS, 7.2). */
export const PRIVATE_RANGES = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '192.168.0.0/16',
  '172.16.0.0/12',
  '169.254.0.0/16',
  '0.0.0.0/8',
  '240.0.0.0/4',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  '::ffff:0:0/96',
  '::/128',
] as const;

const LOOPBACK = ['127.0.0.0/8', '::1/128'] as const;

/** Whether an address (normalised, see normalizeIp) is a trusted proxy for a request from `peer`. */
export type TrustPredicate = (address: string, peer: string) => boolean;

/** A TRUSTED_PROXIES entry that is neither an address, a CIDR range nor an alias. */
export class TrustedProxyError extends Error {
  readonly code = 'KEEL_ERR_CONFIG_TRUSTED_PROXY';

  constructor(entry: string) {
    super(`TRUSTED_PROXIES entry "${entry}" is invalid: expected an IP address, a CIDR range, REMOTE_ADDR, loopback or private_ranges.`);
    this.name = 'TrustedProxyError';
  }
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Compiles the trusted-proxy list once into a predicate. `REMOTE_ADDR` trusts the peer of each request
 * and nothing else, as the reference, which replaces it by the peer's own address: a hop named in
 * X-Forwarded-For is trusted only if it is that same address, so a client cannot pick its own IP by
 * prepending one. `loopback` and `private_ranges` expand to ranges.
 * Addresses are normalised first (see normalizeIp), so an IPv4 client of a dual-stack socket
 * (`::ffff:203.0.113.7`) is judged as the IPv4 address it is, and never by the `::ffff:0:0/96` range.
 * @example compileTrustedProxies(['loopback'])('::1', '::1') // true
 */
export function compileTrustedProxies(entries: readonly string[]): TrustPredicate {
  const ranges: Range[] = [];
  let trustsPeer = false;
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === 'REMOTE_ADDR') trustsPeer = true;
    else if (entry.toLowerCase() === 'loopback') ranges.push(...LOOPBACK.map(parseRange));
    else if (entry.toLowerCase() === 'private_ranges' || entry === 'PRIVATE_SUBNETS') ranges.push(...PRIVATE_RANGES.map(parseRange));
    else ranges.push(parseEntry(entry));
  }
  const inRanges =
    ranges.length === 0
      ? () => false
      : memoizeBounded(CACHE_LIMIT, (address: string) => {
          const ip = parseIp(address);
          if (ip === undefined) return false;
          return ranges.some(([base, bits]) => base.kind() === ip.kind() && (ip as ipaddr.IPv4).match(base as ipaddr.IPv4, bits));
        });
  return trustsPeer ? (address, peer) => address === peer || inRanges(address) : (address) => inRanges(address);
}

// The same few addresses (the proxy, the clients behind it) come back on every request; parsing them
// with ipaddr.js each time was a tenth of a request's CPU. Forwarded headers are client data, so the
// memory is bounded: a full cache is emptied rather than grown.
const CACHE_LIMIT = 1024;

function parseEntry(entry: string): Range {
  try {
    if (entry.includes('/')) {
      // The base is held to the same strict spelling as a single address: ipaddr.js reads `172.16/12` as
      // 172.0.0.0/12 and `010.0.0.0/8` as 8.0.0.0/8, ranges nobody meant to trust (the reference's
      // IpUtils matches nothing for them).
      const slash = entry.indexOf('/');
      if (!isStrictIp(entry.slice(0, slash)) || !/^\d{1,3}$/.test(entry.slice(slash + 1))) throw new Error('not a range');
      const [base, bits] = ipaddr.parseCIDR(entry);
      // An IPv4-mapped range (`::ffff:10.0.0.0/104`) is the IPv4 range it maps, as its single addresses
      // are: peers are judged as IPv4 (see parseIp), and as IPv6 it could never match one.
      if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
      return [base, bits];
    }
    const ip = parseIp(entry);
    if (ip === undefined) throw new Error('not an address');
    return [ip, ip.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new TrustedProxyError(entry);
  }
}

function parseRange(range: string): Range {
  const [base, bits] = ipaddr.parseCIDR(range);
  return [base, bits];
}

/** Parses an address, turning an IPv4-mapped IPv6 address into IPv4; undefined when not an IP. */
function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!isStrictIp(address)) return undefined;
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

/**
 * PHP's FILTER_VALIDATE_IP: IPv4 as a dotted quad of decimals (ipaddr.js also reads octal, hex and short
 * forms, inside an IPv6 address too), and no zone (`%eth0`), which names an interface of the machine that
 * wrote it and means nothing in a header.
 */
function isStrictIp(address: string): boolean {
  if (!address.includes(':')) return ipaddr.IPv4.isValidFourPartDecimal(address);
  if (address.includes('%') || !ipaddr.IPv6.isValid(address)) return false;
  const dot = address.lastIndexOf(':');
  return !address.includes('.', dot) || ipaddr.IPv4.isValidFourPartDecimal(address.slice(dot + 1));
}

/**
 * The address of the connection's peer, normalised as normalizeIp does. A link-local IPv6 peer comes with
 * its zone (`fe80::1%eth0`), which says which of this machine's interfaces it is on: dropped, so that it
 * is judged, and shown, as the address it is.
 * @example normalizePeerIp('fe80::1%eth0') // 'fe80::1'
 */
export function normalizePeerIp(address: string): string | undefined {
  const zone = address.indexOf('%');
  return normalizeIp(zone === -1 ? address : address.slice(0, zone));
}

/**
 * The canonical text of an IP address (IPv4-mapped IPv6 as IPv4), or undefined when it is not one.
 * @example normalizeIp('::ffff:127.0.0.1') // '127.0.0.1'
 */
export const normalizeIp: (address: string) => string | undefined = memoizeBounded(CACHE_LIMIT, (address: string) => parseIp(address)?.toString());

import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { readForm, readJson } from '../http/read-body.js';
import type { Request } from '../http/request.js';

/**
 * The key of a client address. An IPv6 client usually owns a whole /56 or /64 and can hop between its
 * addresses at will, so IPv6 is limited per /56; IPv4 (and IPv4-mapped IPv6) per address.
 * @example clientKey('2001:db8:abcd:12ff::1') // '2001:db8:abcd:1200::/56'
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let i = 7; i < 16; i++) bytes[i] = 0;
  return `${ipaddr.fromByteArray(bytes).toString()}/56`;
}

/**
 * The account a request names in `field` of its form or JSON body (`username` on a login form),
 * lower-cased and hashed: keys stay short, hold no personal data and cannot smuggle key syntax.
 */
export async function accountKey(request: Request, field: string): Promise<string | undefined> {
  // A body that cannot be read (over the size limit, cut off) fails the request here, with its 413 or 400.
  await request.body();
  // The media type without its parameters (RFC 9110 §8.3.1), which may follow any JSON type:
  // `application/vnd.api+json; charset=utf-8` is JSON, and read as a form it named no account.
  const type = (request.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  let value: unknown;
  if (type === 'application/json' || type.endsWith('+json')) {
    // A body that is not a JSON object names no account: the request is limited by its address alone.
    const json = await readJson(request).catch(() => undefined);
    value = json === undefined || Array.isArray(json) ? undefined : json[field];
  } else {
    value = (await readForm(request)).get(field);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 16);
}

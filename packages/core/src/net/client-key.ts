/**
 * The key a per-client budget (rate limit, auto-ban) counts under. An IPv4 client is one address;
 * an IPv6 client is the network it was given: RFC 6177 and RIPE-690 §4.2 have end sites assigned a
 * /48 to /56 and every LAN a /64 (RFC 4291 §2.5.1, the interface id is the low 64 bits), so one
 * subscriber can pick among 2^64 addresses at will. Keyed per address, each would be a fresh budget.
 */
import { formatIp, parseIp, unmapIpv4 } from './ip.ts';

/** The default IPv6 prefix length clients are counted by: one LAN. */
export const DEFAULT_IPV6_CLIENT_PREFIX = 64;

/**
 * `address` for IPv4 (IPv4-mapped IPv6 included), `network/prefix` for IPv6 (`2001:db8:1:2::/64`).
 * Text that is not an IP address (an id a key function chose, `unknown`) is returned as it is.
 * @example clientKey('2001:db8::1:2:3:4', 64) // '2001:db8::/64'
 */
export function clientKey(address: string, ipv6Prefix = DEFAULT_IPV6_CLIENT_PREFIX): string {
  if (!address.includes(':')) return address;
  const parsed = parseIp(address, { zone: 'strip' });
  if (parsed === undefined) return address;
  const ip = unmapIpv4(parsed);
  if (ip.version === 4) return formatIp(ip);
  if (ipv6Prefix >= 128) return formatIp(ip);
  const bytes = ip.bytes.slice();
  const whole = ipv6Prefix >> 3;
  const rest = ipv6Prefix & 7;
  if (rest !== 0) bytes[whole] = (bytes[whole] as number) & ((0xff << (8 - rest)) & 0xff);
  bytes.fill(0, rest === 0 ? whole : whole + 1);
  return `${formatIp({ version: 6, bytes })}/${ipv6Prefix}`;
}

/** Validates an `ipv6Prefix` option (an integer from 1 to 128), throwing with the option's name. */
export function resolveIpv6Prefix(owner: string, value: unknown): number {
  if (value === undefined) return DEFAULT_IPV6_CLIENT_PREFIX;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 128) {
    throw new RangeError(
      `${owner} option "ipv6Prefix" must be an integer from 1 to 128, got ${String(value)}`,
    );
  }
  return value;
}

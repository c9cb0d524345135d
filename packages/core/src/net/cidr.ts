/**
 * CIDR blocks (RFC 4632 §3.1 for IPv4, RFC 4291 §2.3 for IPv6): parsing, containment, and list
 * matchers compiled once. IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) denote IPv4 nodes
 * (RFC 4291 §2.5.5.2), so both addresses and blocks in that form are matched as IPv4.
 */
import { formatIp, type IpAddress, ipv4ToNumber, parseIp, unmapIpv4 } from './ip.ts';

/** A CIDR block: the network address (host bits zero) and the prefix length. */
export interface Cidr {
  readonly version: 4 | 6;
  /** The network address, 4 or 16 bytes. */
  readonly bytes: Uint8Array;
  /** Leading bits that must match: 0-32 for IPv4, 0-128 for IPv6. */
  readonly prefix: number;
}

/** Answers whether an address lies in any block of a compiled list; unparseable text never does. */
export type CidrMatcher = (address: IpAddress | string) => boolean;

function invalid(where: string, text: string, why: string): TypeError {
  return new TypeError(`${where}: "${text}" is not an IP address or CIDR block (${why})`);
}

function parsePrefix(text: string): number {
  if (text.length === 0 || text.length > 3) return -1;
  if (text.length > 1 && text.charCodeAt(0) === 48) return -1;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

function hasHostBits(bytes: Uint8Array, prefix: number): boolean {
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    if (((bytes[bit >> 3] as number) >> (7 - (bit & 7))) & 1) return true;
  }
  return false;
}

/**
 * Parses `a.b.c.d/n`, `x::/n`, or a single address (a /32 or /128 block). Throws a TypeError naming
 * `where` and the entry when the text is not a block, or when it sets bits past the prefix (a typo
 * such as `10.0.0.1/8` would silently widen a trust or deny list).
 * @example parseCidr('10.0.0.0/8', 'behindProxy.cidrs[0]')
 */
export function parseCidr(text: string, where = 'CIDR'): Cidr {
  if (typeof text !== 'string') {
    throw new TypeError(`${where}: expected a string such as "10.0.0.0/8", got ${typeof text}`);
  }
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const addressText = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const address = parseIp(addressText);
  if (address === undefined) throw invalid(where, text, `"${addressText}" is not an IPv4 or IPv6 address`);
  const max = address.version === 4 ? 32 : 128;
  const prefix = slash === -1 ? max : parsePrefix(trimmed.slice(slash + 1));
  if (prefix < 0 || prefix > max) {
    throw invalid(where, text, `the prefix length must be a decimal number from 0 to ${max}`);
  }
  if (hasHostBits(address.bytes, prefix)) {
    throw invalid(where, text, `bits are set past the /${prefix} prefix`);
  }
  const unmapped = unmapIpv4(address);
  if (unmapped !== address && prefix >= 96) {
    return Object.freeze({ version: 4, bytes: unmapped.bytes, prefix: prefix - 96 });
  }
  return Object.freeze({ version: address.version, bytes: address.bytes, prefix });
}

/** The text of a block: `network/prefix`. */
export function formatCidr(cidr: Cidr): string {
  return `${formatIp(cidr)}/${cidr.prefix}`;
}

function toAddress(input: IpAddress | string): IpAddress | undefined {
  const address = typeof input === 'string' ? parseIp(input, { zone: 'strip' }) : input;
  return address === undefined ? undefined : unmapIpv4(address);
}

function prefixMatches(network: Uint8Array, bytes: Uint8Array, prefix: number): boolean {
  const whole = prefix >> 3;
  for (let i = 0; i < whole; i++) if (network[i] !== bytes[i]) return false;
  const rest = prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((network[whole] as number) & mask) === ((bytes[whole] as number) & mask);
}

/** True when the address lies in the block (IPv4-mapped addresses are matched as IPv4). */
export function cidrContains(cidr: Cidr | string, address: IpAddress | string): boolean {
  const block = typeof cidr === 'string' ? parseCidr(cidr) : cidr;
  const ip = toAddress(address);
  if (ip === undefined || ip.version !== block.version) return false;
  return prefixMatches(block.bytes, ip.bytes, block.prefix);
}

/**
 * Compiles a list of blocks or addresses once into a matcher. Throws a TypeError naming
 * `where[index]` for the first invalid entry.
 * @example const trusted = compileCidrs(['10.0.0.0/8', '::1']); trusted('10.1.2.3') // true
 */
export function compileCidrs(list: readonly string[], where = 'cidrs'): CidrMatcher {
  if (!Array.isArray(list)) throw new TypeError(`${where}: expected an array of CIDR blocks or IP addresses`);
  const v4: Array<readonly [network: number, mask: number]> = [];
  const v6: Cidr[] = [];
  list.forEach((entry, index) => {
    const cidr = parseCidr(entry, `${where}[${index}]`);
    if (cidr.version === 4) {
      const mask = cidr.prefix === 0 ? 0 : (0xffffffff << (32 - cidr.prefix)) >>> 0;
      v4.push([ipv4ToNumber(cidr.bytes), mask]);
    } else {
      v6.push(cidr);
    }
  });
  return (input) => {
    const ip = toAddress(input);
    if (ip === undefined) return false;
    if (ip.version === 4) {
      const value = ipv4ToNumber(ip.bytes);
      for (const [network, mask] of v4) if ((value & mask) >>> 0 === network) return true;
      return false;
    }
    for (const cidr of v6) if (prefixMatches(cidr.bytes, ip.bytes, cidr.prefix)) return true;
    return false;
  };
}

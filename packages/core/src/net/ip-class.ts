/**
 * What kind of address an IP is, after the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890, RFC 8190), plus the cloud metadata endpoints that SSRF attacks aim at.
 */
import { formatIp, type IpAddress, ipv4FromNumber, ipv4ToNumber } from './ip.ts';

/**
 * The class of an address:
 * - `loopback`: 127.0.0.0/8, ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3)
 * - `private`: 10/8, 172.16/12, 192.168/16 (RFC 1918) and the shared 100.64/10 (RFC 6598)
 * - `link-local`: 169.254/16 (RFC 3927), fe80::/10 (RFC 4291 §2.5.6)
 * - `unique-local`: fc00::/7 (RFC 4193)
 * - `metadata`: cloud instance-metadata endpoints (see `METADATA_ADDRESSES`)
 * - `unspecified`: 0.0.0.0/8 (RFC 1122 "this network"), :: (RFC 4291 §2.5.2)
 * - `multicast`: 224/4, ff00::/8
 * - `broadcast`: 255.255.255.255 (RFC 919)
 * - `documentation`: 192.0.2/24, 198.51.100/24, 203.0.113/24 (RFC 5737), 2001:db8::/32 (RFC 3849), 3fff::/20 (RFC 9637)
 * - `reserved`: anything else not globally routable (240/4, benchmarking, IETF assignments, unassigned IPv6)
 * - `public`: everything else
 */
export type IpClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

const METADATA_LIST: string[] = [
  // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle Cloud, Hetzner and most others.
  '169.254.169.254',
  // AWS ECS task metadata and credentials endpoint.
  '169.254.170.2',
  // AWS EKS Pod Identity agent (IPv4 and IPv6).
  '169.254.170.23',
  'fd00:ec2::23',
  // AWS IMDS over IPv6.
  'fd00:ec2::254',
  // GCP metadata server on IPv6-only instances.
  'fd20:ce::254',
  // Alibaba Cloud ECS metadata.
  '100.100.100.200',
  // Oracle Cloud Infrastructure Classic metadata.
  '192.0.0.192',
  // Azure WireServer: VM agent configuration and extension settings, reachable from every VM.
  '168.63.129.16',
];

// The set from the list before it is frozen: JavaScriptCore fills a set from a plain array directly,
// from a frozen one through the iterator protocol, whose first use costs a process about a
// millisecond at start-up (issue 18, item 6: the compiled site evaluates this module at every start).
const METADATA = new Set(METADATA_LIST);

/**
 * Instance-metadata endpoints. They hand out cloud credentials, so an SSRF guard keeps them closed even
 * when their range (link-local, private) is opened.
 */
export const METADATA_ADDRESSES: readonly string[] = Object.freeze(METADATA_LIST);

type V4Range = readonly [network: number, prefix: number, cls: IpClass];

// Ordered from the most specific; the first match wins.
const V4_RANGES: readonly V4Range[] = [
  [0x00000000, 8, 'unspecified'],
  [0x0a000000, 8, 'private'],
  [0x64400000, 10, 'private'],
  [0x7f000000, 8, 'loopback'],
  [0xa9fe0000, 16, 'link-local'],
  [0xac100000, 12, 'private'],
  // 192.0.0.0/24: IETF protocol assignments (RFC 6890 §2.2.2), not forwarded by default.
  [0xc0000000, 24, 'reserved'],
  [0xc0000200, 24, 'documentation'],
  // 192.88.99.0/24: the deprecated 6to4 relay anycast (RFC 7526).
  [0xc0586300, 24, 'reserved'],
  [0xc0a80000, 16, 'private'],
  // 198.18.0.0/15: benchmarking (RFC 2544).
  [0xc6120000, 15, 'reserved'],
  [0xc6336400, 24, 'documentation'],
  [0xcb007100, 24, 'documentation'],
  [0xe0000000, 4, 'multicast'],
  [0xf0000000, 4, 'reserved'],
];

function classifyIpv4(address: IpAddress): IpClass {
  const value = ipv4ToNumber(address.bytes);
  if (value === 0xffffffff) return 'broadcast';
  if (METADATA.has(formatIp(address))) return 'metadata';
  for (const [network, prefix, cls] of V4_RANGES) {
    const mask = (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === network) return cls;
  }
  return 'public';
}

function zeroFrom(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}

function group(bytes: Uint8Array, index: number): number {
  return ((bytes[index * 2] as number) << 8) | (bytes[index * 2 + 1] as number);
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that deliver to it:
 * IPv4-mapped `::ffff:0:0/96` and IPv4-compatible `::/96` (RFC 4291 §2.5.5), NAT64 `64:ff9b::/96`
 * (RFC 6052 §2.1) and `64:ff9b:1::/48` written with the /96 layout (RFC 8215), 6to4 `2002::/16`
 * (RFC 3056 §2) and Teredo `2001::/32` (the client address, RFC 4380 §4). Undefined otherwise,
 * including for `::` and `::1`.
 */
export function embeddedIpv4(address: IpAddress): IpAddress | undefined {
  if (address.version !== 6) return undefined;
  const b = address.bytes;
  if (zeroFrom(b, 0, 10)) {
    if (b[10] === 0xff && b[11] === 0xff) return { version: 4, bytes: b.slice(12, 16) };
    // IPv4-compatible, except :: and ::1, which are IPv6's own unspecified and loopback addresses.
    const special = zeroFrom(b, 12, 15) && (b[15] as number) <= 1;
    if (b[10] === 0 && b[11] === 0 && !special) return { version: 4, bytes: b.slice(12, 16) };
    return undefined;
  }
  const g0 = group(b, 0);
  const g1 = group(b, 1);
  if (g0 === 0x64 && g1 === 0xff9b) {
    const g2 = group(b, 2);
    if (g2 === 0 && zeroFrom(b, 6, 12)) return { version: 4, bytes: b.slice(12, 16) };
    if (g2 === 1 && zeroFrom(b, 6, 12)) return { version: 4, bytes: b.slice(12, 16) };
    return undefined;
  }
  if (g0 === 0x2002) return { version: 4, bytes: b.slice(2, 6) };
  // Teredo stores the client address with every bit inverted (RFC 4380 §4).
  if (g0 === 0x2001 && g1 === 0) return { version: 4, bytes: ipv4FromNumber(~ipv4ToNumber(b, 12) >>> 0) };
  return undefined;
}

function classifyIpv6(address: IpAddress): IpClass {
  const b = address.bytes;
  if (zeroFrom(b, 0, 15)) {
    if (b[15] === 0) return 'unspecified';
    if (b[15] === 1) return 'loopback';
  }
  if (METADATA.has(formatIp(address))) return 'metadata';
  const embedded = embeddedIpv4(address);
  if (embedded !== undefined) return classifyIpv4(embedded);
  const g0 = group(b, 0);
  const g1 = group(b, 1);
  // The rest of 64:ff9b:1::/48 uses a sub-prefix layout nobody outside the network knows: refuse it.
  if (g0 === 0x64 && g1 === 0xff9b) return 'reserved';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return 'documentation';
  // 2001:2::/48 benchmarking (RFC 5180), 2001:10::/28 deprecated ORCHID (RFC 4843).
  if (g0 === 0x2001 && g1 === 0x0002 && group(b, 2) === 0) return 'reserved';
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0010) return 'reserved';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // Global unicast is 2000::/3 (RFC 4291 §2.4); the rest (fec0::/10 site-local, 100::/64 discard,
  // 5f00::/16 SRv6, unassigned space) reaches nothing on the Internet.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/**
 * The class of an address; IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4,
 * Teredo) take the class of the address they embed.
 * @example classifyIp(parseIp('::ffff:127.0.0.1')!) // 'loopback'
 */
export function classifyIp(address: IpAddress): IpClass {
  return address.version === 4 ? classifyIpv4(address) : classifyIpv6(address);
}

/**
 * IP address text: parsing (RFC 791 dotted quads, the WHATWG URL Standard's legacy IPv4 forms, RFC 4291
 * §2.2 IPv6 text), canonical formatting (RFC 5952) and classification by the IANA special-purpose
 * address registries (RFC 6890 and successors).
 */
import { hexValue } from '../security/hex.ts';

/** An IP address: 4 bytes (IPv4) or 16 bytes (IPv6), network byte order. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: Uint8Array;
}

/** How `parseIp` reads its text. */
export interface ParseIpOptions {
  /**
   * Also accept the legacy IPv4 spellings that `inet_aton` and the WHATWG URL host parser accept:
   * decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, and the 1- to 3-part short forms.
   * Default false: only the dotted quad, without leading zeros (RFC 6943 §3.1.1 calls the others ambiguous).
   */
  legacyIpv4?: boolean;
  /**
   * An RFC 4007 §11 zone id (`fe80::1%eth0`): `refuse` (default) answers undefined, `strip` drops it.
   * A zone names a local interface and never changes what the address is.
   */
  zone?: 'refuse' | 'strip';
}

const MAX_ZONE_LENGTH = 64;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** RFC 6874 ZoneID characters: unreserved only (pct-encoded forms are refused). */
function isZoneChar(c: number): boolean {
  return (
    isDigit(c) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 45 /* - */ ||
    c === 46 /* . */ ||
    c === 95 /* _ */ ||
    c === 126 /* ~ */
  );
}

/** The 32-bit unsigned value of the IPv4 address stored at `offset` in `bytes` (network byte order). */
export function ipv4ToNumber(bytes: Uint8Array, offset = 0): number {
  return (
    (((bytes[offset] as number) << 24) |
      ((bytes[offset + 1] as number) << 16) |
      ((bytes[offset + 2] as number) << 8) |
      (bytes[offset + 3] as number)) >>>
    0
  );
}

/** The 4 bytes (network byte order) of a 32-bit unsigned IPv4 value. */
export function ipv4FromNumber(value: number): Uint8Array {
  return new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/** Strict dotted quad: four decimal parts 0-255, no leading zeros, no sign, no whitespace. */
function parseIpv4Strict(text: string): Uint8Array | undefined {
  const out = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c === 46) {
      if (digits === 0 || part === 4) return undefined;
      out[part++] = value;
      value = 0;
      digits = 0;
    } else if (isDigit(c)) {
      // A leading zero reads as octal to inet_aton and as decimal to others: refuse the ambiguity.
      if (digits > 0 && value === 0) return undefined;
      value = value * 10 + (c - 48);
      digits++;
      if (value > 255) return undefined;
    } else {
      return undefined;
    }
  }
  return part === 4 ? out : undefined;
}

/** One part of a legacy IPv4 address (WHATWG URL "IPv4 number parser"); -1 when invalid or above 2^32-1. */
function legacyIpv4Number(text: string, start: number, end: number): number {
  if (start === end) return -1;
  let radix = 10;
  let i = start;
  if (end - i >= 2 && text.charCodeAt(i) === 48 && (text.charCodeAt(i + 1) | 0x20) === 120) {
    radix = 16;
    i += 2;
  } else if (end - i >= 2 && text.charCodeAt(i) === 48) {
    radix = 8;
    i += 1;
  }
  let value = 0;
  for (; i < end; i++) {
    const digit = hexValue(text.charCodeAt(i));
    if (digit < 0 || digit >= radix) return -1;
    value = value * radix + digit;
    if (value > 0xffffffff) return -1;
  }
  return value;
}

/** Legacy IPv4 (WHATWG URL "IPv4 parser"): 1 to 4 parts, each decimal, octal (`0` prefix) or hex (`0x`). */
function parseIpv4Legacy(text: string): Uint8Array | undefined {
  let end = text.length;
  // One trailing dot is allowed ("127.0.0.1."), as the URL Standard allows it.
  if (end > 1 && text.charCodeAt(end - 1) === 46) end--;
  const parts: number[] = [];
  let start = 0;
  for (let i = 0; i <= end; i++) {
    if (i === end || text.charCodeAt(i) === 46) {
      if (parts.length === 4) return undefined;
      const n = legacyIpv4Number(text, start, i);
      if (n < 0) return undefined;
      parts.push(n);
      start = i + 1;
    }
  }
  const last = parts.length - 1;
  let value = 0;
  for (let i = 0; i < last; i++) {
    const part = parts[i] as number;
    if (part > 255) return undefined;
    value += part * 256 ** (3 - i);
  }
  const tail = parts[last] as number;
  if (tail >= 256 ** (4 - last)) return undefined;
  value += tail;
  return ipv4FromNumber(value);
}

/**
 * IPv6 text (RFC 4291 §2.2): eight groups of 1-4 hex digits, one `::` standing for one or more zero
 * groups, and a dotted quad in place of the last two groups. The scan follows the WHATWG URL
 * Standard's IPv6 parser, which accepts exactly these forms.
 */
function parseIpv6Text(text: string): Uint8Array | undefined {
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  const n = text.length;
  let index = 0;
  let compress = -1;
  let i = 0;
  if (n === 0) return undefined;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return undefined;
    i = 2;
    index = 1;
    compress = 1;
  }
  while (i < n) {
    if (index === 8) return undefined;
    if (text.charCodeAt(i) === 58) {
      if (compress !== -1) return undefined;
      i++;
      index++;
      compress = index;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && i < n && hexValue(text.charCodeAt(i)) >= 0) {
      value = value * 16 + hexValue(text.charCodeAt(i));
      i++;
      length++;
    }
    if (i < n && text.charCodeAt(i) === 46) {
      // Embedded dotted quad (RFC 4291 §2.2 form 3): it fills the last two groups.
      if (length === 0 || index > 6) return undefined;
      const quad = parseIpv4Strict(text.slice(i - length));
      if (quad === undefined) return undefined;
      groups[index++] = ((quad[0] as number) << 8) | (quad[1] as number);
      groups[index++] = ((quad[2] as number) << 8) | (quad[3] as number);
      i = n;
      break;
    }
    if (length === 0) return undefined;
    if (i < n) {
      if (text.charCodeAt(i) !== 58) return undefined;
      i++;
      if (i === n) return undefined;
    }
    groups[index++] = value;
  }
  if (compress !== -1) {
    // Slide the groups written after `::` to the end; the gap stays zero.
    let swaps = index - compress;
    let to = 7;
    while (to !== 0 && swaps > 0) {
      const from = compress + swaps - 1;
      const moved = groups[from] as number;
      groups[from] = groups[to] as number;
      groups[to] = moved;
      to--;
      swaps--;
    }
  } else if (index !== 8) {
    return undefined;
  }
  const out = new Uint8Array(16);
  for (let g = 0; g < 8; g++) {
    out[g * 2] = (groups[g] as number) >>> 8;
    out[g * 2 + 1] = (groups[g] as number) & 0xff;
  }
  return out;
}

/**
 * Parses an IPv4 or IPv6 address (no brackets, no port). Undefined when the text is not one.
 * @example parseIp('::ffff:192.0.2.1') // { version: 6, bytes: Uint8Array(16) }
 */
export function parseIp(text: string, options?: ParseIpOptions): IpAddress | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > 128) return undefined;
  if (text.includes(':')) {
    let body = text;
    const percent = text.indexOf('%');
    if (percent !== -1) {
      if (options?.zone !== 'strip') return undefined;
      const zoneLength = text.length - percent - 1;
      if (zoneLength === 0 || zoneLength > MAX_ZONE_LENGTH) return undefined;
      for (let i = percent + 1; i < text.length; i++) if (!isZoneChar(text.charCodeAt(i))) return undefined;
      body = text.slice(0, percent);
    }
    const bytes = parseIpv6Text(body);
    return bytes === undefined ? undefined : { version: 6, bytes };
  }
  const bytes = options?.legacyIpv4 === true ? parseIpv4Legacy(text) : parseIpv4Strict(text);
  return bytes === undefined ? undefined : { version: 4, bytes };
}

/** True when the text is an IPv4 dotted quad or IPv6 address (strict forms, no zone id). */
export function isIp(text: string): boolean {
  return parseIp(text) !== undefined;
}

/** Whether an IPv6 address is IPv4-mapped, `::ffff:0:0/96` (RFC 4291 §2.5.5.2). */
function isMapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/**
 * Canonical text: dotted quad, or RFC 5952 §4 IPv6 (lowercase, no leading zeros, the longest run of two or
 * more zero groups as `::`, the first on a tie); IPv4-mapped addresses as `::ffff:a.b.c.d` (§5).
 */
export function formatIp(address: IpAddress): string {
  const b = address.bytes;
  if (address.version === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (isMapped(b)) return `::ffff:${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const groups: number[] = [];
  for (let g = 0; g < 8; g++) groups.push(((b[g * 2] as number) << 8) | (b[g * 2 + 1] as number));
  let bestStart = -1;
  let bestLength = 1;
  for (let g = 0; g < 8; ) {
    if (groups[g] !== 0) {
      g++;
      continue;
    }
    let end = g;
    while (end < 8 && groups[end] === 0) end++;
    if (end - g > bestLength) {
      bestStart = g;
      bestLength = end - g;
    }
    g = end;
  }
  if (bestStart === -1) return groups.map((v) => v.toString(16)).join(':');
  const head = groups.slice(0, bestStart).map((v) => v.toString(16));
  const tail = groups.slice(bestStart + bestLength).map((v) => v.toString(16));
  return `${head.join(':')}::${tail.join(':')}`;
}

/** Parses then formats: the canonical text of an address, or undefined when the text is not one. */
export function canonicalizeIp(text: string, options?: ParseIpOptions): string | undefined {
  const address = parseIp(text, options);
  return address === undefined ? undefined : formatIp(address);
}

/** The IPv4 address of an IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2); any other address unchanged. */
export function unmapIpv4(address: IpAddress): IpAddress {
  if (address.version === 6 && isMapped(address.bytes)) {
    return { version: 4, bytes: address.bytes.slice(12, 16) };
  }
  return address;
}

/** True when both denote the same address (an IPv4-mapped address equals its IPv4 address). */
export function ipEquals(a: IpAddress, b: IpAddress): boolean {
  const x = unmapIpv4(a);
  const y = unmapIpv4(b);
  if (x.version !== y.version) return false;
  for (let i = 0; i < x.bytes.length; i++) if (x.bytes[i] !== y.bytes[i]) return false;
  return true;
}

/**
 * Parsers for the proxy chain headers: the de facto `X-Forwarded-For` list and RFC 7239 `Forwarded`.
 * They read hostile text without throwing: what parses is returned, the rest is marked invalid, and
 * every entry keeps its position so positional trust (proxy hops) stays exact.
 */
import { formatIp, type IpAddress, parseIp, unmapIpv4 } from './ip.ts';

/** One hop of a proxy chain, as a proxy wrote it. */
export interface ForwardedHop {
  /**
   * `ip`: an address; `unknown`: the RFC 7239 §6.2 `unknown` identifier; `obfuscated`: an RFC 7239
   * §6.3 `_identifier`; `invalid`: text that is none of these (or a `Forwarded` element without `for`).
   */
  readonly kind: 'ip' | 'unknown' | 'obfuscated' | 'invalid';
  /** The node text as received, unquoted and trimmed. */
  readonly raw: string;
  /** Canonical text (RFC 5952; IPv4-mapped addresses as IPv4) when `kind` is `ip`. */
  readonly address?: string;
  readonly ip?: IpAddress;
  /** The port or obfuscated port (RFC 7239 §6.1 node-port), when one was given. */
  readonly port?: string;
}

/** One element of a `Forwarded` field: the parameters one proxy added (RFC 7239 §4). */
export interface ForwardedElement {
  /** The `for` node; an `invalid` hop (raw `''` when absent) when the parameter is missing or malformed. */
  readonly for: ForwardedHop;
  readonly by?: ForwardedHop;
  readonly host?: string;
  readonly proto?: string;
  /** False when any part of the element failed to parse (a repeated parameter, a broken quote...). */
  readonly valid: boolean;
}

const INVALID_EMPTY: ForwardedHop = Object.freeze({ kind: 'invalid', raw: '' });

function isObfuscatedChar(c: number): boolean {
  // RFC 7239 §6.3: ALPHA / DIGIT / "." / "_" / "-"
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 45
  );
}

function isObfuscated(text: string): boolean {
  if (text.length < 2 || text.charCodeAt(0) !== 95) return false;
  for (let i = 1; i < text.length; i++) if (!isObfuscatedChar(text.charCodeAt(i))) return false;
  return true;
}

function isPort(text: string): boolean {
  if (text.length === 0 || text.length > 5) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(text) <= 65535;
}

/** The hop of an address: canonical text, IPv4-mapped addresses as IPv4 (RFC 4291 §2.5.5.2). */
export function ipHop(raw: string, ip: IpAddress, port?: string): ForwardedHop {
  const canonical = unmapIpv4(ip);
  const hop = { kind: 'ip' as const, raw, address: formatIp(canonical), ip: canonical };
  return Object.freeze(port === undefined ? hop : { ...hop, port });
}

/**
 * Reads one node (RFC 7239 §6): `192.0.2.1`, `192.0.2.1:8080`, `[2001:db8::1]`, `[2001:db8::1]:8080`,
 * a bare IPv6 address (X-Forwarded-For writes them so), `unknown` or `_obfuscated`, each with an
 * optional port. Anything else is an `invalid` hop.
 */
export function parseForwardedNode(text: string): ForwardedHop {
  const raw = text.trim();
  if (raw.length === 0 || raw.length > 256) return Object.freeze({ kind: 'invalid', raw });
  let name = raw;
  let port: string | undefined;
  if (raw.charCodeAt(0) === 91) {
    const close = raw.indexOf(']');
    if (close === -1) return Object.freeze({ kind: 'invalid', raw });
    name = raw.slice(1, close);
    const rest = raw.slice(close + 1);
    if (rest.length > 0) {
      if (rest.charCodeAt(0) !== 58) return Object.freeze({ kind: 'invalid', raw });
      port = rest.slice(1);
    }
    const ip = parseIp(name);
    if (ip === undefined || ip.version !== 6) return Object.freeze({ kind: 'invalid', raw });
    if (port !== undefined && !isPort(port) && !isObfuscated(port))
      return Object.freeze({ kind: 'invalid', raw });
    return ipHop(raw, ip, port);
  }
  const colon = raw.indexOf(':');
  if (colon !== -1 && raw.indexOf(':', colon + 1) === -1) {
    // Exactly one colon: IPv4, `unknown` or an obfuscated name, then a port.
    name = raw.slice(0, colon);
    port = raw.slice(colon + 1);
    if (!isPort(port) && !isObfuscated(port)) return Object.freeze({ kind: 'invalid', raw });
  }
  if (name.toLowerCase() === 'unknown') {
    return Object.freeze(port === undefined ? { kind: 'unknown', raw } : { kind: 'unknown', raw, port });
  }
  if (isObfuscated(name)) {
    return Object.freeze(
      port === undefined ? { kind: 'obfuscated', raw } : { kind: 'obfuscated', raw, port },
    );
  }
  const ip = parseIp(name);
  // A bare IPv6 address carries no port; `1.2.3.4` with a port was split above.
  if (ip === undefined || (port !== undefined && ip.version !== 4))
    return Object.freeze({ kind: 'invalid', raw });
  return ipHop(raw, ip, port);
}

/**
 * Parses `X-Forwarded-For`: a comma-separated list of nodes, left-most the original client. Several
 * field lines are one list (RFC 9110 §5.3; `Headers.get` joins them). Empty list elements are skipped
 * (RFC 9110 §5.6.1); every other element yields exactly one hop, `invalid` when it does not parse.
 */
export function parseXForwardedFor(value: string | null | undefined): ForwardedHop[] {
  if (typeof value !== 'string' || value.length === 0) return [];
  const hops: ForwardedHop[] = [];
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    if (i === value.length || value.charCodeAt(i) === 44) {
      const item = value.slice(start, i).trim();
      if (item.length > 0) hops.push(parseForwardedNode(item));
      start = i + 1;
    }
  }
  return hops;
}

interface PairScan {
  /** Index just after the value. */
  end: number;
  value: string;
  ok: boolean;
}

function isOws(c: number): boolean {
  return c === 32 || c === 9;
}

/** Reads a `token / quoted-string` value starting at `i` (RFC 7239 §4, RFC 9110 §5.6.4). */
function scanValue(text: string, i: number): PairScan {
  const n = text.length;
  if (i < n && text.charCodeAt(i) === 34) {
    let value = '';
    for (let j = i + 1; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === 34) return { end: j + 1, value, ok: true };
      if (c === 92 && j + 1 < n) {
        j++;
        value += text[j];
      } else {
        value += text[j];
      }
    }
    // Unterminated: the element ends at the next comma, so one broken quote cannot swallow the
    // elements that later proxies appended.
    const comma = text.indexOf(',', i);
    return { end: comma === -1 ? n : comma, value: '', ok: false };
  }
  let j = i;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === 44 || c === 59) break;
    j++;
  }
  // Lenient: an unquoted value runs to the next `;` or `,` (proxies write `for=192.0.2.1:80` unquoted).
  const value = text.slice(i, j).trim();
  return { end: j, value, ok: value.length > 0 && !value.includes('"') };
}

/**
 * Parses RFC 7239 `Forwarded`: comma-separated elements, each `;`-separated `name=value` pairs with
 * token or quoted-string values. Several field lines are one list. Names are case-insensitive; a
 * parameter repeated within an element makes it invalid (§4). Never throws.
 */
export function parseForwarded(value: string | null | undefined): ForwardedElement[] {
  if (typeof value !== 'string' || value.length === 0) return [];
  const elements: ForwardedElement[] = [];
  const n = value.length;
  let i = 0;
  while (i <= n) {
    const params = new Map<string, string>();
    let valid = true;
    let empty = true;
    // One element: pairs until a top-level comma or the end.
    while (i < n) {
      while (i < n && isOws(value.charCodeAt(i))) i++;
      if (i >= n) break;
      const c = value.charCodeAt(i);
      if (c === 44) break;
      if (c === 59) {
        i++;
        continue;
      }
      empty = false;
      let j = i;
      while (j < n) {
        const d = value.charCodeAt(j);
        if (d === 61 || d === 44 || d === 59) break;
        j++;
      }
      const name = value.slice(i, j).trim().toLowerCase();
      if (j >= n || value.charCodeAt(j) !== 61) {
        // No `=`: j stopped at a separator or the end, past at least one character.
        valid = false;
        i = j;
        continue;
      }
      let k = j + 1;
      while (k < n && isOws(value.charCodeAt(k))) k++;
      const scan = scanValue(value, k);
      i = scan.end;
      while (i < n && isOws(value.charCodeAt(i))) i++;
      if (!scan.ok || name.length === 0 || params.has(name)) valid = false;
      else params.set(name, scan.value);
      // Anything between the value and the next separator is garbage.
      if (i < n && value.charCodeAt(i) !== 59 && value.charCodeAt(i) !== 44) {
        valid = false;
        while (i < n && value.charCodeAt(i) !== 59 && value.charCodeAt(i) !== 44) i++;
      }
    }
    if (!empty) elements.push(toElement(params, valid));
    i++;
  }
  return elements;
}

function toElement(params: Map<string, string>, valid: boolean): ForwardedElement {
  const forText = params.get('for');
  let forHop = forText === undefined ? INVALID_EMPTY : parseForwardedNode(forText);
  // A repeated or broken parameter could be the `for` we cannot see: trust none of the element.
  if (!valid) forHop = Object.freeze({ kind: 'invalid', raw: forText ?? '' });
  const byText = params.get('by');
  const element: {
    for: ForwardedHop;
    by?: ForwardedHop;
    host?: string;
    proto?: string;
    valid: boolean;
  } = { for: forHop, valid };
  if (byText !== undefined) element.by = parseForwardedNode(byText);
  const host = params.get('host');
  if (host !== undefined) element.host = host;
  const proto = params.get('proto');
  if (proto !== undefined) element.proto = proto.toLowerCase();
  return Object.freeze(element);
}

// Cookies (RFC 6265; prefixes, SameSite and size limits from RFC 6265bis; Partitioned from CHIPS).
import { isHttpToken, trimOws } from './header-guards.ts';

/** Attributes of a Set-Cookie; every field optional, with the defaults below. */
export interface CookieAttributes {
  /** Cross-site sending: `Strict` (default), `Lax` or `None` (which requires `secure`). */
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Send over HTTPS only; default true (browsers treat http://localhost as secure). */
  secure?: boolean;
  /** Hide from `document.cookie`; default true. */
  httpOnly?: boolean;
  /** Path scope; default `/`. Must start with `/`; must be `/` for a `__Host-` cookie. */
  path?: string;
  /** Domain scope; default none (host-only). Forbidden for a `__Host-` cookie. */
  domain?: string;
  /** Lifetime in seconds; default none (a session cookie). 0 omits Max-Age: use `serializeClearCookie` to expire. */
  maxAgeSeconds?: number;
  /** Absolute expiry; default none. Max-Age wins where both are sent. */
  expires?: Date;
  /** Partitioned storage per top-level site (CHIPS); default false; requires `secure`. */
  partitioned?: boolean;
}

/** Which cookie rule `assertCookieAttributes` found broken. */
export type CookieRule =
  | 'name'
  | 'same-site'
  | 'path'
  | 'domain'
  | 'max-age'
  | 'expires'
  | 'host-prefix'
  | 'secure-prefix'
  | 'http-prefix'
  | 'same-site-none-secure'
  | 'partitioned-secure'
  | 'production-secure'
  | 'production-http-only';

/** A cookie whose attributes break a rule. A configuration error, not an HTTP one. */
export class CookieAttributeError extends Error {
  readonly scope: string;
  readonly cookieName: string;
  readonly rule: CookieRule;
  constructor(scope: string, cookieName: string, rule: CookieRule, reason: string) {
    super(`${scope} "${cookieName}": ${reason}`);
    this.name = 'CookieAttributeError';
    this.scope = scope;
    this.cookieName = cookieName;
    this.rule = rule;
  }
}

interface ResolvedAttributes {
  sameSite: string;
  secure: boolean;
  httpOnly: boolean;
  path: string;
  domain: string | undefined;
  maxAgeSeconds: number | undefined;
  expires: Date | undefined;
  partitioned: boolean;
}

function resolve(attributes: CookieAttributes = {}): ResolvedAttributes {
  return {
    sameSite: attributes.sameSite ?? 'Strict',
    secure: attributes.secure ?? true,
    httpOnly: attributes.httpOnly ?? true,
    path: attributes.path ?? '/',
    domain: attributes.domain,
    maxAgeSeconds: attributes.maxAgeSeconds,
    expires: attributes.expires,
    partitioned: attributes.partitioned ?? false,
  };
}

// UAs ignore an attribute value longer than 1024 octets (RFC 6265bis §5.6).
const MAX_ATTRIBUTE_BYTES = 1024;
// UAs ignore a cookie whose name and value together pass 4096 octets (RFC 6265bis §5.6).
const MAX_NAME_VALUE_BYTES = 4096;

/** path-value (RFC 6265 §4.1.1): any CHAR except CTLs or ";". Starting with "/" avoids the UA's default-path rule (§5.2.4). */
function isValidPath(path: string): boolean {
  if (path.length === 0 || path.length > MAX_ATTRIBUTE_BYTES || path.charCodeAt(0) !== 0x2f) return false;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x3b) return false;
  }
  return true;
}

/** A host name (RFC 6265 §4.1.2.3 domain-value), with the leading dot UAs ignore allowed. */
function isValidDomain(domain: string): boolean {
  const host = domain.startsWith('.') ? domain.slice(1) : domain;
  if (host.length === 0 || host.length > 253) return false;
  for (const char of host) {
    const ok = (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9');
    if (!ok && char !== '-' && char !== '.') return false;
  }
  return true;
}

function isProductionScopeExempt(scope: string): boolean {
  // Double-submit CSRF tokens must be readable by scripts (OWASP CSRF cheat sheet).
  const lower = scope.toLowerCase();
  return lower.includes('csrf') || lower.includes('xsrf');
}

/**
 * Throws a `CookieAttributeError` naming `scope`, the cookie and the rule when the attributes
 * (with defaults applied) are invalid or would make a browser drop the cookie:
 * - the name is an RFC 6265 token; sameSite is `Strict`, `Lax` or `None`; path starts with `/`
 *   and holds no control character or `;`; domain is a host name; maxAgeSeconds is finite and not
 *   negative; expires is a valid Date.
 * - `__Host-` (any case): Secure, path `/`, no Domain. `__Secure-`: Secure. `__Http-` and
 *   `__Host-Http-`: HttpOnly as well (RFC 6265bis §4.1.3).
 * - `SameSite=None` and `Partitioned` require Secure.
 * - With `isProduction`: every cookie is Secure, and HttpOnly unless `scope` names a CSRF token
 *   (`csrf` or `xsrf` in the label), which scripts must read.
 */
export function assertCookieAttributes(input: {
  scope: string;
  name: string;
  attributes: CookieAttributes;
  isProduction?: boolean;
}): void {
  const { scope, name } = input;
  const fail = (rule: CookieRule, reason: string): never => {
    const shown = typeof name === 'string' && isHttpToken(name) ? name : '(invalid name)';
    throw new CookieAttributeError(String(scope), shown, rule, reason);
  };
  if (typeof name !== 'string' || !isHttpToken(name)) fail('name', 'the name must be an RFC 6265 token');
  const a = resolve(input.attributes);
  if (a.sameSite !== 'Strict' && a.sameSite !== 'Lax' && a.sameSite !== 'None') {
    fail('same-site', 'sameSite must be "Strict", "Lax" or "None"');
  }
  if (typeof a.path !== 'string' || !isValidPath(a.path)) {
    fail('path', 'path must start with "/" and hold no control character, ";" or non-ASCII character');
  }
  if (a.domain !== undefined && (typeof a.domain !== 'string' || !isValidDomain(a.domain))) {
    fail('domain', 'domain must be a host name (letters, digits, "-" and ".")');
  }
  if (a.maxAgeSeconds !== undefined && !(Number.isFinite(a.maxAgeSeconds) && a.maxAgeSeconds >= 0)) {
    fail('max-age', 'maxAgeSeconds must be a finite number of seconds >= 0');
  }
  if (a.expires !== undefined && !(a.expires instanceof Date && Number.isFinite(a.expires.getTime()))) {
    fail('expires', 'expires must be a valid Date');
  }
  // Prefixes match case-insensitively (RFC 6265bis §4.1.3), so `__HOST-` gets no looser rules.
  const lower = name.toLowerCase();
  if (lower.startsWith('__host-')) {
    if (!a.secure) fail('host-prefix', 'the __Host- prefix requires Secure');
    if (a.path !== '/') fail('host-prefix', 'the __Host- prefix requires Path=/');
    if (a.domain !== undefined) fail('host-prefix', 'the __Host- prefix forbids Domain');
  }
  if (lower.startsWith('__secure-') && !a.secure)
    fail('secure-prefix', 'the __Secure- prefix requires Secure');
  if ((lower.startsWith('__http-') || lower.startsWith('__host-http-')) && !(a.secure && a.httpOnly)) {
    fail('http-prefix', 'the __Http- and __Host-Http- prefixes require Secure and HttpOnly');
  }
  if (a.sameSite === 'None' && !a.secure) fail('same-site-none-secure', 'SameSite=None requires Secure');
  if (a.partitioned && !a.secure) fail('partitioned-secure', 'Partitioned requires Secure');
  if (input.isProduction === true) {
    if (!a.secure) fail('production-secure', 'production cookies must be Secure');
    if (!a.httpOnly && !isProductionScopeExempt(scope)) {
      fail(
        'production-http-only',
        'production cookies must be HttpOnly (only a CSRF token cookie may be read by scripts)',
      );
    }
  }
}

function assertName(name: string): void {
  if (typeof name !== 'string' || !isHttpToken(name)) {
    throw new TypeError("A cookie name must be an RFC 6265 token (letters, digits and !#$%&'*+-.^_`|~)");
  }
}

function attributeList(a: ResolvedAttributes): string {
  let out = '';
  if (a.domain !== undefined) out += `; Domain=${a.domain}`;
  out += `; Path=${a.path}`;
  if (a.secure) out += '; Secure';
  if (a.httpOnly) out += '; HttpOnly';
  out += `; SameSite=${a.sameSite}`;
  if (a.partitioned) out += '; Partitioned';
  return out;
}

/**
 * A Set-Cookie value: the value URI-encoded, then the attributes with their defaults (`Path=/;
 * Secure; HttpOnly; SameSite=Strict`). Throws a TypeError for a name that is not a token or a
 * value that is not well-formed Unicode, a RangeError past 4096 bytes of name and value, and a
 * `CookieAttributeError` for attributes `assertCookieAttributes` refuses.
 */
export function serializeCookie(name: string, value: string, attributes?: CookieAttributes): string {
  assertName(name);
  let encoded: string;
  try {
    encoded = encodeURIComponent(String(value));
  } catch {
    throw new TypeError(`The value of cookie "${name}" is not well-formed Unicode (a lone surrogate)`);
  }
  if (name.length + encoded.length > MAX_NAME_VALUE_BYTES) {
    throw new RangeError(`Cookie "${name}" is over ${MAX_NAME_VALUE_BYTES} bytes; browsers would drop it`);
  }
  assertCookieAttributes({ scope: 'cookie', name, attributes: attributes ?? {} });
  const a = resolve(attributes);
  let out = `${name}=${encoded}`;
  // A fraction under one second rounds up, never down to a Max-Age=0 that would delete the cookie.
  if (a.maxAgeSeconds !== undefined && a.maxAgeSeconds > 0) {
    out += `; Max-Age=${Math.max(1, Math.floor(a.maxAgeSeconds))}`;
  }
  if (a.expires !== undefined) out += `; Expires=${a.expires.toUTCString()}`;
  return out + attributeList(a);
}

const EPOCH = new Date(0).toUTCString();

/**
 * A Set-Cookie that deletes the cookie: empty value, `Max-Age=0` and an Expires in the past (for
 * agents that predate Max-Age). Pass the path and domain the cookie was set with, or the browser
 * keeps it; maxAgeSeconds and expires are ignored.
 */
export function serializeClearCookie(name: string, attributes?: CookieAttributes): string {
  assertName(name);
  const cleared = { ...attributes, maxAgeSeconds: undefined, expires: undefined };
  assertCookieAttributes({ scope: 'cookie', name, attributes: cleared });
  return `${name}=; Max-Age=0; Expires=${EPOCH}${attributeList(resolve(cleared))}`;
}

function decodeValue(raw: string): string {
  // cookie-value may be wrapped in DQUOTEs (RFC 6265 §4.1.1); they are not part of the value.
  const inner = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!inner.includes('%')) return inner;
  try {
    return decodeURIComponent(inner);
  } catch {
    return inner;
  }
}

/** Calls `visit` with each name and raw value of a Cookie header, in order; pairs without `=` or a name are skipped. */
function eachPair(header: string, visit: (name: string, raw: string) => void): void {
  let start = 0;
  while (start <= header.length) {
    let end = header.indexOf(';', start);
    if (end === -1) end = header.length;
    // Search for "=" inside this pair only, so a header of many bare pairs stays linear.
    const pair = header.slice(start, end);
    const eq = pair.indexOf('=');
    if (eq !== -1) {
      const name = trimOws(pair.slice(0, eq));
      if (name !== '') visit(name, trimOws(pair.slice(eq + 1)));
    }
    start = end + 1;
  }
}

/** Every cookie of a Cookie header, each name mapped to all its values in order (decoded). Never throws. */
export function parseCookieHeader(header: string | null | undefined): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  if (typeof header !== 'string') return cookies;
  eachPair(header, (name, raw) => {
    const values = cookies.get(name);
    if (values === undefined) cookies.set(name, [decodeValue(raw)]);
    else values.push(decodeValue(raw));
  });
  return cookies;
}

/**
 * The decoded value of cookie `name` (matched case-sensitively), or null when it is absent or
 * present more than once: a sibling subdomain can plant a second cookie with the same name
 * (cookie tossing), and nothing in the header says which one is genuine.
 */
export function readRequestCookie(header: string | null | undefined, name: string): string | null {
  assertName(name);
  if (typeof header !== 'string') return null;
  let found: string | undefined;
  let count = 0;
  eachPair(header, (candidate, raw) => {
    if (candidate !== name) return;
    count++;
    found = raw;
  });
  return count === 1 && found !== undefined ? decodeValue(found) : null;
}

/**
 * Security response headers. `resolveSecureHeaders` turns the options into the list of headers to
 * send, once; the App applies that list to every response at the perimeter (AppOptions
 * `secureHeaders`), and `secureHeaders()` gives the same list as a hook for a group or a route.
 * Defaults suit a JSON API: a response should never be rendered, framed, sniffed or shared across
 * origins unless a route says otherwise by setting the header itself.
 */
import { isProductionEnv } from '../security/environment.ts';
import type { Hooks } from '../types/index.ts';
import { isFieldValue, setResponseHeaders } from '../pipeline/response-headers.ts';

/**
 * A CSP directive value: a source list (string or array), `true` for a valueless directive,
 * `false` to drop it.
 */
export type CspDirectiveValue = string | readonly string[] | boolean;

/** CSP directives by name (`default-src` or `defaultSrc`); merged onto the defaults. */
export type CspDirectives = Readonly<Record<string, CspDirectiveValue | undefined>>;

/** Strict-Transport-Security (RFC 6797 §6.1). */
export interface HstsOptions {
  /** `max-age` in seconds; default 31536000 (one year). */
  maxAgeSeconds?: number;
  /** Cover every subdomain too; default true. */
  includeSubDomains?: boolean;
  /** Ask to be preloaded into browsers; default false. Needs includeSubDomains and a max-age of a year. */
  preload?: boolean;
  /** Send it outside production too; default false (an HSTS pin on localhost outlives the dev session). */
  inDevelopment?: boolean;
}

/** Referrer-Policy tokens (W3C Referrer Policy §3). */
export type ReferrerPolicyToken =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url';

/** Options of the security headers: each header is `false` (not sent) or its value. */
export interface SecureHeadersOptions {
  /**
   * Content-Security-Policy: a directives object merged onto the defaults (a directive set to
   * `false` is dropped), a whole policy string, or false. Default `default-src 'none'; base-uri
   * 'none'; form-action 'none'; frame-ancestors 'none'`: an API response loads nothing, so if one
   * is ever rendered as a page (a reflected value, a browser opening a JSON URL), no script,
   * style, frame or form in it can do anything. Pages (the docs UI) set their own CSP.
   */
  contentSecurityPolicy?: false | string | CspDirectives;
  /**
   * Strict-Transport-Security, in production only by default: `max-age=31536000; includeSubDomains`.
   * Browsers then refuse plain HTTP to the host for a year, closing SSL-stripping (RFC 6797 §2.3).
   */
  strictTransportSecurity?: false | HstsOptions;
  /** X-Content-Type-Options; default `nosniff`: no MIME sniffing a JSON body into HTML or script. */
  xContentTypeOptions?: false | 'nosniff';
  /**
   * X-Frame-Options; default `DENY`: no framing (clickjacking). The CSP `frame-ancestors` does the
   * same for current browsers; this covers older ones.
   */
  xFrameOptions?: false | 'DENY' | 'SAMEORIGIN';
  /** Referrer-Policy, a token or a fallback list; default `no-referrer`: URLs (and tokens) stay here. */
  referrerPolicy?: false | ReferrerPolicyToken | readonly ReferrerPolicyToken[];
  /**
   * Cross-Origin-Opener-Policy; default `same-origin`: a cross-origin window that opens this one
   * gets no handle on it (cross-window attacks, XS-Leaks).
   */
  crossOriginOpenerPolicy?:
    | false
    | 'same-origin'
    | 'same-origin-allow-popups'
    | 'noopener-allow-popups'
    | 'unsafe-none';
  /**
   * Cross-Origin-Resource-Policy; default `same-origin`: other origins cannot embed the response
   * as a no-cors subresource (Spectre-style reads). CORS requests are unaffected: a CORS policy
   * still lets the origins it allows read the API.
   */
  crossOriginResourcePolicy?: false | 'same-origin' | 'same-site' | 'cross-origin';
  /**
   * Cross-Origin-Embedder-Policy; default false (not sent). `require-corp` makes a page refuse
   * every cross-origin subresource without CORP or CORS, which breaks ordinary embedding; it is
   * only worth it for pages that need cross-origin isolation (SharedArrayBuffer).
   */
  crossOriginEmbedderPolicy?: false | 'require-corp' | 'credentialless' | 'unsafe-none';
  /** Origin-Agent-Cluster; default `?1`: an agent cluster of its own (no `document.domain` relaxing). */
  originAgentCluster?: false | '?1' | '?0';
  /** X-DNS-Prefetch-Control; default `off`: links in a response do not leak DNS look-ups. */
  xDnsPrefetchControl?: false | 'off' | 'on';
  /** X-Permitted-Cross-Domain-Policies; default `none`: Flash/PDF readers load no cross-domain policy. */
  xPermittedCrossDomainPolicies?: false | 'none' | 'master-only' | 'by-content-type' | 'all';
  /**
   * X-XSS-Protection; default `0`, which turns the legacy XSS auditor off: the auditor is gone
   * from current browsers and, where present, could be abused to blank out or probe pages.
   */
  xXssProtection?: false | '0';
}

/** What the headers depend on besides the options. */
export interface SecureHeadersContext {
  /** Strict-Transport-Security is sent only in production unless `inDevelopment`. */
  production: boolean;
}

/** The security headers to send, in order: lower-case name and value. */
export type SecureHeaderList = ReadonlyArray<readonly [string, string]>;

/** The default CSP directives, in the order they are written. */
export const DEFAULT_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
});

const HSTS_DEFAULT_MAX_AGE = 31_536_000;

const REFERRER_POLICIES: readonly string[] = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
];

/** Each simple header: option key, header name, default value and allowed values. */
const SIMPLE_HEADERS = [
  ['xContentTypeOptions', 'x-content-type-options', 'nosniff', ['nosniff']],
  ['xFrameOptions', 'x-frame-options', 'DENY', ['DENY', 'SAMEORIGIN']],
  [
    'crossOriginOpenerPolicy',
    'cross-origin-opener-policy',
    'same-origin',
    ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'],
  ],
  [
    'crossOriginResourcePolicy',
    'cross-origin-resource-policy',
    'same-origin',
    ['same-origin', 'same-site', 'cross-origin'],
  ],
  [
    'crossOriginEmbedderPolicy',
    'cross-origin-embedder-policy',
    false,
    ['require-corp', 'credentialless', 'unsafe-none'],
  ],
  ['originAgentCluster', 'origin-agent-cluster', '?1', ['?1', '?0']],
  ['xDnsPrefetchControl', 'x-dns-prefetch-control', 'off', ['off', 'on']],
  [
    'xPermittedCrossDomainPolicies',
    'x-permitted-cross-domain-policies',
    'none',
    ['none', 'master-only', 'by-content-type', 'all'],
  ],
  ['xXssProtection', 'x-xss-protection', '0', ['0']],
] as const satisfies readonly (readonly [
  keyof SecureHeadersOptions,
  string,
  string | false,
  readonly string[],
])[];

const KNOWN_OPTIONS = new Set<string>([
  'contentSecurityPolicy',
  'strictTransportSecurity',
  'referrerPolicy',
  ...SIMPLE_HEADERS.map(([key]) => key),
]);

function fail(option: string, problem: string): never {
  throw new TypeError(`secureHeaders option "${option}" ${problem}`);
}

/** `defaultSrc` -> `default-src`; kebab-case names pass unchanged. */
function directiveName(key: string): string {
  let out = '';
  for (const char of key) out += char >= 'A' && char <= 'Z' ? `-${char.toLowerCase()}` : char;
  return out;
}

/** CSP3 §2.2.1: a directive name is ALPHA / DIGIT / "-". */
function isDirectiveName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
    if (!ok) return false;
  }
  return true;
}

/** CSP3 §2.2.1: a source expression is visible ASCII but `;` and `,` (directive and policy delimiters). */
function isSourceExpression(token: string): boolean {
  if (token.length === 0) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x3b || c === 0x2c) return false;
  }
  return true;
}

function directiveSources(name: string, value: string | readonly string[]): string[] {
  const tokens = typeof value === 'string' ? value.split(' ').filter((t) => t !== '') : [...value];
  for (const token of tokens) {
    if (typeof token !== 'string' || !isSourceExpression(token)) {
      fail(
        `contentSecurityPolicy.${name}`,
        `has an invalid source ${JSON.stringify(token)}: visible ASCII without ";" or ","`,
      );
    }
  }
  return tokens;
}

/** Builds the CSP header value from the option. Exported for the docs UI and tests. */
export function buildContentSecurityPolicy(option: string | CspDirectives | undefined): string {
  if (typeof option === 'string') {
    if (option.trim() === '' || !isFieldValue(option)) {
      fail('contentSecurityPolicy', 'must be a non-empty header value without control characters');
    }
    return option;
  }
  const merged = new Map<string, readonly string[] | true>(Object.entries(DEFAULT_CSP_DIRECTIVES));
  if (option !== undefined) {
    if (typeof option !== 'object' || option === null || Array.isArray(option)) {
      fail('contentSecurityPolicy', 'must be false, a policy string or a directives object');
    }
    for (const [key, value] of Object.entries(option)) {
      const name = directiveName(key);
      if (!isDirectiveName(name)) fail(`contentSecurityPolicy.${key}`, 'is not a CSP directive name');
      if (value === undefined || value === false) merged.delete(name);
      else if (value === true) merged.set(name, true);
      else if (typeof value === 'string' || Array.isArray(value))
        merged.set(name, directiveSources(name, value));
      else fail(`contentSecurityPolicy.${key}`, 'must be a source list (string or array), true or false');
    }
  }
  if (merged.size === 0) fail('contentSecurityPolicy', 'has no directives left; use false to send no policy');
  const parts: string[] = [];
  for (const [name, value] of merged) {
    parts.push(value === true || value.length === 0 ? name : `${name} ${value.join(' ')}`);
  }
  return parts.join('; ');
}

function buildHsts(option: HstsOptions | undefined): { value: string; inDevelopment: boolean } {
  const hsts = option ?? {};
  if (typeof hsts !== 'object' || hsts === null)
    fail('strictTransportSecurity', 'must be false or an options object');
  const maxAge = hsts.maxAgeSeconds ?? HSTS_DEFAULT_MAX_AGE;
  if (!Number.isInteger(maxAge) || maxAge < 0) {
    throw new RangeError(
      'secureHeaders option "strictTransportSecurity.maxAgeSeconds" must be a non-negative integer, ' +
        `got ${String(maxAge)}`,
    );
  }
  for (const flag of ['includeSubDomains', 'preload', 'inDevelopment'] as const) {
    if (hsts[flag] !== undefined && typeof hsts[flag] !== 'boolean') {
      fail(`strictTransportSecurity.${flag}`, 'must be a boolean');
    }
  }
  const includeSubDomains = hsts.includeSubDomains ?? true;
  const preload = hsts.preload ?? false;
  // The preload list admits only hosts that pin every subdomain for at least a year (hstspreload.org).
  if (preload && (!includeSubDomains || maxAge < HSTS_DEFAULT_MAX_AGE)) {
    throw new RangeError(
      'secureHeaders option "strictTransportSecurity.preload" needs includeSubDomains and ' +
        'maxAgeSeconds >= 31536000',
    );
  }
  let value = `max-age=${maxAge}`;
  if (includeSubDomains) value += '; includeSubDomains';
  if (preload) value += '; preload';
  return { value, inDevelopment: hsts.inDevelopment ?? false };
}

function buildReferrerPolicy(option: ReferrerPolicyToken | readonly ReferrerPolicyToken[]): string {
  const tokens = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(tokens) || tokens.length === 0) {
    fail('referrerPolicy', 'must be false, a policy token or a non-empty list of them');
  }
  for (const token of tokens) {
    if (!REFERRER_POLICIES.includes(token)) {
      fail(
        'referrerPolicy',
        `has an unknown policy ${JSON.stringify(token)}; expected one of ${REFERRER_POLICIES.join(', ')}`,
      );
    }
  }
  return tokens.join(', ');
}

/**
 * The security headers for these options, validated (a bad option throws a TypeError or
 * RangeError naming it). This list is the single source of truth: the App computes it once and
 * applies it to every response; the `secureHeaders` hook applies the same list.
 */
export function resolveSecureHeaders(
  options: SecureHeadersOptions | false | undefined,
  context: SecureHeadersContext,
): SecureHeaderList {
  if (options === false) return Object.freeze([]);
  const opts = options ?? {};
  if (typeof opts !== 'object' || opts === null)
    throw new TypeError('secureHeaders options must be an object or false');
  for (const key of Object.keys(opts)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`secureHeaders has no option "${key}"`);
  }
  const list: (readonly [string, string])[] = [];
  const csp = opts.contentSecurityPolicy;
  if (csp !== false) list.push(['content-security-policy', buildContentSecurityPolicy(csp)]);
  const hsts = opts.strictTransportSecurity;
  if (hsts !== false) {
    const built = buildHsts(hsts);
    if (context.production || built.inDevelopment) list.push(['strict-transport-security', built.value]);
  }
  const referrer = opts.referrerPolicy ?? 'no-referrer';
  if (referrer !== false) list.push(['referrer-policy', buildReferrerPolicy(referrer)]);
  for (const [key, name, fallback, allowed] of SIMPLE_HEADERS) {
    const value: unknown = opts[key] === undefined ? fallback : opts[key];
    if (value === false) continue;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      fail(
        key,
        `must be false or one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${String(value)}`,
      );
    }
    list.push([name, value]);
  }
  return Object.freeze(list.map((entry) => Object.freeze(entry)));
}

/**
 * Adds each header of `list` that the response does not already carry (a route that set its own
 * CSP or framing policy keeps it). Returns the Response to use: a copy when the response's
 * headers were immutable (a `fetch()` or `Response.redirect()` result).
 */
export function applySecureHeaders(response: Response, list: SecureHeaderList): Response {
  return setResponseHeaders(response, list, { overwrite: false });
}

/**
 * Hooks adding the security headers to every response they see (onSend, error responses
 * included). The App already does this for every response unless `secureHeaders: false`; use the
 * hook for different options on a group or a route. `context.production` defaults to
 * `NODE_ENV === 'production'`, as the App's does.
 */
export function secureHeaders(
  options?: SecureHeadersOptions,
  context: Partial<SecureHeadersContext> = {},
): Hooks {
  const list = resolveSecureHeaders(options, { production: context.production ?? isProductionEnv() });
  return { onSend: (response) => applySecureHeaders(response, list) };
}

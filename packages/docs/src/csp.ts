/**
 * The Content-Security-Policy of a docs page (W3C CSP Level 3): nothing is allowed but what the UI
 * needs, namely its own scripts and styles from the asset origins, its init script by nonce or hash,
 * the spec fetch, and the relaxations a UI proves to need (inline styles, blob workers).
 */
import { hashSourceProblem } from './assets.ts';

/** Options of `docsContentSecurityPolicy`. */
export interface DocsContentSecurityPolicyOptions {
  /** Origins the UI's scripts, styles, fonts and images come from (`https://cdn.jsdelivr.net`); default none. */
  assetOrigins?: readonly string[];
  /** Origins the page may fetch from besides its own (an absolute spec URL, a "try it" server); default none. */
  connectOrigins?: readonly string[];
  /** Nonce of the inline init script (`'nonce-<value>'` in script-src); default none. */
  scriptNonce?: string;
  /** SRI-style `sha256-<base64>` hashes of inline scripts (`'sha256-...'` in script-src); default none. */
  scriptHashes?: readonly string[];
  /** Add `'unsafe-inline'` to style-src, for UIs that inject `<style>` elements; default false. */
  allowInlineStyles?: boolean;
  /** Add `worker-src blob:`, for a UI that starts a Web Worker from a blob URL; default false. */
  allowBlobWorkers?: boolean;
}

/** The option keys, shared with `htmlResponse` which extends them. */
export const DOCS_CSP_OPTION_KEYS: readonly string[] = Object.freeze([
  'assetOrigins',
  'connectOrigins',
  'scriptNonce',
  'scriptHashes',
  'allowInlineStyles',
  'allowBlobWorkers',
]);

/** Characters no origin may contain: they would end the source list or the directive (CSP3 §2.2.1). */
function hasUnsafeOriginCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x3b || c === 0x2c || c === 0x27 || c === 0x22) return true;
  }
  return false;
}

const ORIGIN_SCHEMES: readonly string[] = ['https:', 'http:', 'wss:', 'ws:'];

/**
 * Checks that `origin` is a serialised origin, `scheme://host[:port]` in the form `URL#origin`
 * writes it (HTML "serialization of an origin"), with an http(s) or ws(s) scheme. The
 * character check comes first: `;`, `,`, quotes and whitespace would let an origin inject
 * directives or keywords into the policy, and the URL parser lets `;` and `,` through in hosts.
 */
export function assertSerialisedOrigin(origin: unknown, option: string): asserts origin is string {
  if (typeof origin !== 'string' || origin === '') throw new TypeError(`${option} must be an origin string`);
  if (hasUnsafeOriginCharacter(origin)) {
    throw new TypeError(
      `${option} must not contain whitespace, quotes, ";" or ",", got ${JSON.stringify(origin)}`,
    );
  }
  const parsed = URL.parse(origin);
  if (parsed === null || !ORIGIN_SCHEMES.includes(parsed.protocol) || parsed.origin !== origin) {
    throw new TypeError(
      `${option} must be a serialised origin such as https://cdn.example.com (lower case, no path, ` +
        `no default port), got ${JSON.stringify(origin)}`,
    );
  }
}

/**
 * Checks a CSP nonce: base64 or base64url characters (CSP3 §2.3.1 `base64-value`) and at least 22
 * of them, that is 128 bits, the minimum CSP3 §2.3.1 asks of a nonce so that it cannot be guessed.
 */
export function assertScriptNonce(nonce: unknown, option: string): asserts nonce is string {
  if (typeof nonce !== 'string') throw new TypeError(`${option} must be a string`);
  let padding = 0;
  for (let i = 0; i < nonce.length; i++) {
    const c = nonce.charCodeAt(i);
    const body =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b ||
      c === 0x2f ||
      c === 0x2d ||
      c === 0x5f;
    if (c === 0x3d) padding++;
    else if (!body || padding > 0) {
      throw new TypeError(`${option} must be base64 or base64url characters, got ${JSON.stringify(nonce)}`);
    }
  }
  if (padding > 2) throw new TypeError(`${option} has more than two "=" of padding`);
  if (nonce.length - padding < 22) {
    throw new TypeError(`${option} must carry at least 128 bits (22 base64 characters), got ${nonce.length}`);
  }
}

function originList(value: unknown, option: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${option} must be an array of origins`);
  const out: string[] = [];
  value.forEach((origin, index) => {
    assertSerialisedOrigin(origin, `${option}[${index}]`);
    if (!out.includes(origin)) out.push(origin);
  });
  return out;
}

function hashList(value: unknown, option: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${option} must be an array of hashes`);
  const out: string[] = [];
  value.forEach((hash, index) => {
    const problem = typeof hash === 'string' ? hashSourceProblem(hash) : 'must be a string';
    if (problem !== undefined) throw new TypeError(`${option}[${index}] ${problem}`);
    if (!out.includes(hash)) out.push(hash);
  });
  return out;
}

function flag(value: unknown, option: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${option} must be a boolean`);
  return value;
}

/**
 * The CSP of a docs page. Everything starts from `default-src 'none'`; each directive lists only
 * what the UI loads. `base-uri`, `form-action` and `frame-ancestors` do not fall back to
 * default-src (they are not fetch directives, CSP3 §6.1), so they are spelled out as `'none'`;
 * `object-src 'none'` is written too, so plugins stay off even if default-src is ever relaxed.
 */
export function docsContentSecurityPolicy(options: DocsContentSecurityPolicyOptions = {}): string {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('docsContentSecurityPolicy options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!DOCS_CSP_OPTION_KEYS.includes(key))
      throw new TypeError(`docsContentSecurityPolicy has no option "${key}"`);
  }
  const assets = originList(options.assetOrigins, 'assetOrigins');
  const connect = originList(options.connectOrigins, 'connectOrigins');
  const hashes = hashList(options.scriptHashes, 'scriptHashes');
  if (options.scriptNonce !== undefined) assertScriptNonce(options.scriptNonce, 'scriptNonce');
  const inlineStyles = flag(options.allowInlineStyles, 'allowInlineStyles');
  const blobWorkers = flag(options.allowBlobWorkers, 'allowBlobWorkers');

  const script = ["'self'", ...assets];
  if (options.scriptNonce !== undefined) script.push(`'nonce-${options.scriptNonce}'`);
  for (const hash of hashes) script.push(`'${hash}'`);
  const style = ["'self'", ...assets];
  if (inlineStyles) style.push("'unsafe-inline'");

  const directives: string[] = [
    "default-src 'none'",
    `script-src ${script.join(' ')}`,
    `style-src ${style.join(' ')}`,
    `img-src ${["'self'", 'data:', ...assets].join(' ')}`,
    `font-src ${["'self'", 'data:', ...assets].join(' ')}`,
    `connect-src ${["'self'", ...connect].join(' ')}`,
  ];
  if (blobWorkers) directives.push('worker-src blob:');
  directives.push("base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "object-src 'none'");
  return directives.join('; ');
}

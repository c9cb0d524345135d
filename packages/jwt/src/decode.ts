// Splitting and decoding a JWS Compact Serialization (RFC 7515 §7.1) without trusting it: every
// structural problem is a JwtError `malformed`, `none` is `alg-none`, and nothing here throws
// anything else. The signature is checked later, by the verifier.
import { isNoneAlgorithm } from './algorithms.ts';
import { decodeBase64Url, decodeBase64UrlText } from './base64url.ts';
import { JwtError } from './errors.ts';
import { parseJsonObject } from './json.ts';
import type { JwtHeader, JwtPayload } from './types.ts';

/** A token taken apart, not yet verified. */
export interface DecodedJws {
  readonly header: JwtHeader;
  readonly payload: JwtPayload;
  /** ASCII(BASE64URL(header) || '.' || BASE64URL(payload)), the bytes signed (RFC 7515 §5.1). */
  readonly signingInput: Uint8Array<ArrayBuffer>;
  readonly signature: Uint8Array<ArrayBuffer>;
}

const malformed = (message: string): JwtError => new JwtError('malformed', message);

const encoder = new TextEncoder();

/** Decodes a compact JWS; throws `malformed` or `alg-none` (and only JwtErrors). */
export function decodeJws(token: unknown, maxLength: number): DecodedJws {
  if (typeof token !== 'string') throw malformed('The token must be a string');
  // Refused before any decoding, so an oversized token costs nothing.
  if (token.length > maxLength) throw malformed(`The token is longer than ${maxLength} characters`);
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  // Exactly three parts: JWE (five parts) and JSON serializations are not JWS compact tokens.
  if (second < 0 || token.indexOf('.', second + 1) >= 0) {
    throw malformed('The token must have three base64url parts separated by "."');
  }
  const headerText = decodeBase64UrlText(token.slice(0, first));
  if (headerText === undefined || first === 0) throw malformed('The header is not base64url-encoded UTF-8');
  const header = parseJsonObject(headerText);
  if (typeof header === 'string') throw malformed(`The header ${header}`);
  // RFC 8725 §3.1: an unsecured token is never accepted, whatever the letter case.
  if (isNoneAlgorithm(header.alg)) {
    throw new JwtError('alg-none', 'Unsecured tokens (alg "none") are never accepted');
  }
  if (typeof header.alg !== 'string' || header.alg.length === 0) {
    throw malformed('The header has no "alg" string (RFC 7515 §4.1.1)');
  }
  for (const name of ['kid', 'typ', 'cty'] as const) {
    if (header[name] !== undefined && typeof header[name] !== 'string') {
      throw malformed(`The header member "${name}" must be a string`);
    }
  }
  const payloadPart = token.slice(first + 1, second);
  const payloadText = decodeBase64UrlText(payloadPart);
  if (payloadText === undefined || payloadPart.length === 0) {
    throw malformed('The payload is not base64url-encoded UTF-8');
  }
  const payload = parseJsonObject(payloadText);
  if (typeof payload === 'string') throw malformed(`The claims set ${payload}`);
  const signature = decodeBase64Url(token.slice(second + 1));
  if (signature === undefined || signature.length === 0) throw malformed('The signature is not base64url');
  return {
    header: header as JwtHeader,
    payload: payload as JwtPayload,
    signingInput: encoder.encode(token.slice(0, second)),
    signature,
  };
}

// Header names defined by RFC 7515 §4.1 and RFC 7518 §4.1 for JWS: never allowed in `crit`
// (RFC 7515 §4.1.11).
const REGISTERED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'alg',
  'jku',
  'jwk',
  'kid',
  'x5u',
  'x5c',
  'x5t',
  'x5t#S256',
  'typ',
  'cty',
  'crit',
]);

/** True for a header name that may never be listed in `crit`. */
export function isRegisteredHeaderName(name: string): boolean {
  return REGISTERED_HEADER_NAMES.has(name);
}

/**
 * Enforces `crit` (RFC 7515 §4.1.11): a non-empty list of distinct extension names, each present in
 * the header; any name outside `understood` is `crit-unsupported`.
 */
export function assertCriticalHeaders(header: JwtHeader, understood: ReadonlySet<string>): void {
  const crit: unknown = header.crit;
  if (crit === undefined) return;
  if (!Array.isArray(crit) || crit.length === 0 || !crit.every((name) => typeof name === 'string')) {
    throw malformed('The header member "crit" must be a non-empty array of strings');
  }
  if (new Set(crit).size !== crit.length) throw malformed('The header member "crit" repeats a name');
  for (const name of crit as string[]) {
    if (isRegisteredHeaderName(name)) {
      throw malformed(`The header member "crit" lists the registered name "${name}"`);
    }
  }
  for (const name of crit as string[]) {
    if (!understood.has(name)) {
      throw new JwtError('crit-unsupported', `The critical header parameter "${name}" is not understood`);
    }
    if (!Object.hasOwn(header, name)) throw malformed(`The critical header parameter "${name}" is absent`);
  }
}

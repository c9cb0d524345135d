/**
 * What the header-only authenticators (bearer, basic, apiKey) share: parsing the `Authorization`
 * header (RFC 9110 §11.6.2), turning a verify callback's answer into an `AuthUser`, and running that
 * callback so its failures never leak.
 */
import { formatChallenge } from './challenge.ts';
import type { AuthUser } from './types.ts';
import { InternalError, isHttpError } from '../errors/index.ts';
import { isHttpToken } from '../security/header-guards.ts';

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What a verify callback answers. `true` accepts with an anonymous principal (no `sub`, no scopes);
 * an object accepts with that principal; `false`, `null` or `undefined` refuse with a 401.
 */
export type AuthUserInput =
  | true
  | {
      /** Subject identifier: a user id, a client id. */
      sub?: string;
      /** Granted scopes: a list, or one space-separated string as OAuth 2 sends it (RFC 6749 §3.3). */
      scopes?: readonly string[] | string;
      /** Attributes of the credential (claims, roles, tenant...). */
      claims?: Readonly<Record<string, unknown>>;
    };

/** The answer of a verify callback of bearer, basic and apiKey. */
export type VerifyResult = AuthUserInput | false | null | undefined;

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), i.e. visible ASCII but `"` and `\`. */
export function isScopeToken(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function normaliseScopes(scopes: readonly string[] | string | undefined): readonly string[] {
  if (scopes === undefined) return Object.freeze([]);
  const list = typeof scopes === 'string' ? scopes.split(' ').filter((s) => s !== '') : scopes;
  if (!Array.isArray(list)) throw new TypeError('scopes must be a string array or a space-separated string');
  const seen = new Set<string>();
  for (const scope of list) {
    if (!isScopeToken(scope))
      throw new TypeError(`scope ${JSON.stringify(scope)} is not an RFC 6749 scope-token`);
    seen.add(scope);
  }
  return Object.freeze([...seen]);
}

/**
 * Turns a verify callback's acceptance into a frozen `AuthUser`; throws a TypeError for a value that
 * is neither `true` nor a principal object (a bug in the callback, reported as a 500 by the caller).
 */
export function normaliseUser(input: AuthUserInput): AuthUser {
  if (input === true)
    return Object.freeze({ sub: undefined, scopes: Object.freeze([]), claims: Object.freeze({}) });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError('verify must return true, false, null, undefined or { sub?, scopes?, claims? }');
  }
  const { sub, scopes, claims } = input;
  if (sub !== undefined && typeof sub !== 'string') throw new TypeError('sub must be a string');
  if (claims !== undefined && (typeof claims !== 'object' || claims === null || Array.isArray(claims))) {
    throw new TypeError('claims must be an object');
  }
  return Object.freeze({
    sub,
    scopes: normaliseScopes(scopes),
    claims: Object.freeze({ ...claims }),
  });
}

/**
 * Runs a verify callback and normalises its answer: the user, or undefined for a refusal. An HttpError
 * it throws passes through (the callback chose the answer); anything else, including a malformed
 * answer, becomes a 500 whose detail names no credential and no internals: the original error is kept
 * only as the `cause`, for the log.
 */
export async function runVerify(
  helper: string,
  run: () => MaybePromise<VerifyResult>,
): Promise<AuthUser | undefined> {
  let result: VerifyResult;
  try {
    result = await run();
  } catch (error) {
    if (isHttpError(error)) throw error;
    throw new InternalError({ detail: `The ${helper} credential check failed.`, cause: error });
  }
  if (result === false || result === null || result === undefined) return undefined;
  try {
    return normaliseUser(result);
  } catch (error) {
    throw new InternalError({ detail: `The ${helper} credential check failed.`, cause: error });
  }
}

/** The parts of an `Authorization` header value: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`. */
export interface AuthorizationParts {
  /** The auth-scheme as sent; compare it case-insensitively (RFC 9110 §11.1). */
  readonly scheme: string;
  /** What follows the scheme and its spaces; empty when nothing does. */
  readonly rest: string;
}

/**
 * Splits an `Authorization` value into scheme and rest (RFC 9110 §11.6.2); undefined when the scheme is
 * not a token. Header values reach us already trimmed of surrounding whitespace (RFC 9110 §5.5).
 */
export function parseAuthorization(value: string): AuthorizationParts | undefined {
  // The scheme runs to the first SP; a non-token character before it (or an empty scheme) refuses.
  const space = value.indexOf(' ');
  const scheme = space === -1 ? value : value.slice(0, space);
  if (!isHttpToken(scheme)) return undefined;
  if (space === -1) return { scheme, rest: '' };
  let i = space;
  while (i < value.length && value.charCodeAt(i) === 0x20) i++;
  return { scheme, rest: value.slice(i) };
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreservedChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x5f ||
    c === 0x7e
  );
}

/**
 * RFC 9110 §11.2 token68 (also RFC 6750 §2.1 b64token): `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" /
 * "+" / "/" ) *"="`, i.e. unreserved plus "+" and "/", then padding. Checked by a scan, never a regular
 * expression.
 */
export function isToken68(value: string): boolean {
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!isUnreservedChar(c) && c !== 0x2b && c !== 0x2f) break;
  }
  if (i === 0) return false;
  for (; i < value.length; i++) if (value.charCodeAt(i) !== 0x3d) return false;
  return true;
}

/** Validates a helper's `realm` option (a challenge must be able to carry it) and fills the default. */
export function resolveRealm(helper: string, realm: unknown): string {
  const value = realm ?? 'api';
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${helper} option "realm" must be a non-empty string`);
  }
  try {
    formatChallenge({ scheme: 'Bearer', params: { realm: value } });
  } catch {
    throw new TypeError(`${helper} option "realm" has control or non-Latin-1 characters`);
  }
  return value;
}

/** Validates a helper's `verify` option. */
export function assertVerify(helper: string, verify: unknown): void {
  if (typeof verify !== 'function') throw new TypeError(`${helper} option "verify" must be a function`);
}

/** Validates a positive integer option. */
export function resolveLength(helper: string, option: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new RangeError(`${helper} option "${option}" must be a positive integer, got ${String(value)}`);
  }
  return n;
}

/** A boolean option, false when absent; throws a TypeError naming the option otherwise. */
export function resolveFlag(helper: string, option: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${helper} option "${option}" must be a boolean`);
  return value;
}

/** An own property of a raw header or query map (never one inherited from `Object.prototype`). */
export function ownValue<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Where an API key travels (OpenAPI 3.1 Security Scheme Object `in`). */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/** The locations an API key may use. */
export const API_KEY_LOCATIONS: readonly ApiKeyLocation[] = Object.freeze(['header', 'query', 'cookie']);

function isUnreserved(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (!isUnreservedChar(value.charCodeAt(i))) return false;
  return true;
}

/**
 * Why `name` cannot carry an API key at `location`, or undefined when it can: a header or cookie name
 * must be a token (RFC 9110 §5.1, RFC 6265 §4.1.1); a query parameter name must be RFC 3986 unreserved
 * characters, so it reads the same whether a client percent-encodes it or not.
 */
export function apiKeyNameProblem(location: ApiKeyLocation, name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'must be a non-empty string';
  if (location === 'query') {
    return isUnreserved(name) ? undefined : 'must use only letters, digits and "-._~" for a query parameter';
  }
  return isHttpToken(name) ? undefined : `must be an HTTP token for a ${location} name`;
}

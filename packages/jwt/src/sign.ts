// JWT signing (RFC 7519 §7.1, RFC 7515 §5.1) for service-to-service tokens, signed URLs, webhook
// payloads and test fixtures. The signer owns `exp` and `nbf`: `exp` follows from a lifetime the
// signer caps, so no token outlives `maxLifetimeSeconds`. `iat` is the signing time unless the
// payload gives one (as callers coming from jose do), which may not lie in the future.
import { randomId } from '@charter/core';
import {
  algorithmSpec,
  isJwtAlgorithm,
  isNoneAlgorithm,
  type JwtAlgorithm,
  signParams,
} from './algorithms.ts';
import { encodeBase64Url, encodeBase64UrlText } from './base64url.ts';
import { JwtError } from './errors.ts';
import { parseJsonObject } from './json.ts';
import { importKeyFor, isJwtKeyInput, type JwtKeyInput, keyProblem } from './keys.ts';
import { optionalFunction, optionalText, optionalTextList, optionsObject } from './options.ts';
import { assertMaxLifetime, assertSeconds, DEFAULT_MAX_LIFETIME_SECONDS, nowSeconds } from './temporal.ts';

const encoder = new TextEncoder();

/** Default token lifetime when signing: 15 minutes, in seconds. */
export const DEFAULT_EXPIRES_IN_SECONDS = 900;

/** Options of `createJwtSigner`. */
export interface JwtSignerOptions {
  /** The signing algorithm. */
  algorithm: JwtAlgorithm;
  /** The private key (or HMAC secret) for `algorithm`. */
  key: JwtKeyInput;
  /** Header `kid` of every token. Default: none. */
  kid?: string;
  /** The `iss` claim of every token. Default: none (a payload `iss` is kept). */
  issuer?: string;
  /** The `aud` claim of every token. Default: none (a payload `aud` is kept). */
  audience?: string | string[];
  /** Lifetime (`exp` - `iat`) in seconds; default 900 (15 minutes). */
  expiresInSeconds?: number;
  /** Longest lifetime a token may get, in seconds; default 2592000 (30 days); `Infinity` disables the cap. */
  maxLifetimeSeconds?: number;
  /** Header `typ`; default `JWT`. */
  typ?: string;
  /** The clock, in seconds since the epoch; default `Date.now()` in whole seconds. */
  now?: () => number;
  /**
   * How far past the clock a payload `iat` may be, in seconds; default 0, the verifier's default, so
   * the signer never makes a token its own verifier refuses as `issued-in-future`.
   */
  clockSkewSeconds?: number;
}

/** Per-token settings of `sign`. */
export interface JwtSignOverrides {
  /** Lifetime of this token in seconds; default the signer's `expiresInSeconds`. */
  expiresInSeconds?: number;
  /** The `nbf` claim, seconds since the epoch. Default: none. */
  notBefore?: number;
  /** The `sub` claim; wins over a payload `sub`. */
  subject?: string;
  /** The `aud` claim; wins over the signer's `audience` and a payload `aud`. */
  audience?: string | string[];
  /** The `jti` claim; default a payload `jti`, else 16 random bytes in base64url. */
  jti?: string;
  /** Header `kid` of this token; default the signer's `kid`. */
  kid?: string;
  /** Extra protected header members (may not contain `alg`). */
  header?: Record<string, unknown>;
}

/** A configured signer. */
export interface JwtSigner {
  /** Signs `payload` (a JSON object) and resolves the compact token. */
  sign(payload: Record<string, unknown>, opts?: JwtSignOverrides): Promise<string>;
}

interface ResolvedSignerOptions {
  readonly algorithm: JwtAlgorithm;
  readonly key: JwtKeyInput;
  readonly kid: string | undefined;
  readonly issuer: string | undefined;
  readonly audience: string | readonly string[] | undefined;
  readonly expiresInSeconds: number;
  readonly maxLifetimeSeconds: number;
  readonly typ: string;
  readonly now: () => number;
  readonly clockSkewSeconds: number;
}

const invalidOptions = (message: string): JwtError => new JwtError('invalid-options', message);

function resolveAudience(value: unknown, name: string): string | readonly string[] | undefined {
  const list = optionalTextList(value, name);
  return typeof value === 'string' ? value : list;
}

function resolveLifetime(value: unknown, name: string, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidOptions(`${name} must be a finite number of seconds > 0`);
  }
  if (value > max) {
    throw new JwtError('lifetime-too-long', `${name} (${value} s) is over the ${max} s maximum lifetime`);
  }
  return value;
}

/** Validates the signer options, filling defaults; throws `JwtError` naming the option. */
function resolveJwtSignerOptions(opts: JwtSignerOptions): ResolvedSignerOptions {
  if (typeof opts !== 'object' || opts === null) {
    throw invalidOptions('createJwtSigner needs an options object');
  }
  const algorithm: unknown = opts.algorithm;
  if (isNoneAlgorithm(algorithm)) {
    throw invalidOptions('algorithm may not be "none": unsecured tokens are never made');
  }
  if (!isJwtAlgorithm(algorithm)) {
    throw invalidOptions(`algorithm ${JSON.stringify(algorithm)} is not supported`);
  }
  if (!isJwtKeyInput(opts.key)) {
    throw invalidOptions('key must be a CryptoKey, a Uint8Array (HMAC secret) or a JSON Web Key');
  }
  const problem = keyProblem(opts.key, algorithm, 'sign');
  if (problem !== undefined) {
    throw new JwtError('invalid-key', `key cannot sign ${algorithm}: ${problem.message}`);
  }
  const maxLifetimeSeconds = opts.maxLifetimeSeconds ?? DEFAULT_MAX_LIFETIME_SECONDS;
  assertMaxLifetime(maxLifetimeSeconds, 'maxLifetimeSeconds');
  const clockSkewSeconds = opts.clockSkewSeconds ?? 0;
  assertSeconds(clockSkewSeconds, 'clockSkewSeconds');
  return {
    algorithm,
    key: opts.key,
    kid: optionalText(opts.kid, 'kid'),
    issuer: optionalText(opts.issuer, 'issuer'),
    audience: resolveAudience(opts.audience, 'audience'),
    expiresInSeconds: resolveLifetime(
      opts.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS,
      'expiresInSeconds',
      maxLifetimeSeconds,
    ),
    maxLifetimeSeconds,
    typ: optionalText(opts.typ, 'typ') ?? 'JWT',
    now: optionalFunction<() => number>(opts.now, 'now') ?? nowSeconds,
    clockSkewSeconds,
  };
}

function plainObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOptions(`${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

// `exp` and `nbf` come from the signer only, so the lifetime cap cannot be bypassed by the payload.
const SIGNER_TIME_CLAIMS = ['exp', 'nbf'] as const;

// JSON text of a header or claims set, checked with the verifier's own parser: a member name it
// refuses (`__proto__`, `constructor`, `prototype`, at any depth) is refused here, before signing.
function serialize(value: Record<string, unknown>, name: string): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new JwtError('invalid-options', `${name} cannot be serialized as JSON`, { cause: error });
  }
  const parsed = parseJsonObject(text);
  if (typeof parsed === 'string') throw invalidOptions(`${name} ${parsed}`);
  return text;
}

/**
 * A payload `iat` (RFC 7519 §4.1.6, a NumericDate: fractions allowed), or undefined for the signing
 * time. A non-number is `invalid-iat`; one past the clock by more than the skew is `issued-in-future`,
 * the codes the verifier would give the same token.
 */
function issuedAt(value: unknown, now: number, skew: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new JwtError('invalid-iat', 'payload.iat must be a finite number of seconds since the epoch');
  }
  if (value > now + skew) {
    throw new JwtError(
      'issued-in-future',
      `payload.iat is ${Math.ceil(value - now)} s in the future (clockSkewSeconds: ${skew})`,
    );
  }
  return value;
}

function buildClaims(
  options: ResolvedSignerOptions,
  payload: Record<string, unknown>,
  call: Partial<JwtSignOverrides>,
): Record<string, unknown> {
  for (const name of SIGNER_TIME_CLAIMS) {
    if (payload[name] !== undefined) {
      throw invalidOptions(`payload.${name} is set by the signer (use expiresInSeconds or notBefore)`);
    }
  }
  const now = options.now();
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw invalidOptions('now() must return a finite number');
  }
  const signedAt = Math.floor(now);
  const iat = issuedAt(payload.iat, now, options.clockSkewSeconds) ?? signedAt;
  const lifetime =
    call.expiresInSeconds === undefined
      ? options.expiresInSeconds
      : resolveLifetime(call.expiresInSeconds, 'expiresInSeconds', options.maxLifetimeSeconds);
  // The lifetime counts from the signing time (as jose's setExpirationTime does), whatever `iat` says;
  // an `iat` far in the past cannot stretch the token past the cap the verifier applies to exp - iat.
  const exp = signedAt + lifetime;
  if (exp - iat > options.maxLifetimeSeconds) {
    throw new JwtError(
      'lifetime-too-long',
      `exp - payload.iat (${exp - iat} s) is over the ${options.maxLifetimeSeconds} s maximum lifetime`,
    );
  }
  const nbf = call.notBefore;
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf) || nbf >= exp)) {
    throw invalidOptions('notBefore must be a finite number of seconds before the expiry');
  }
  const iss = options.issuer ?? payload.iss;
  const sub = optionalText(call.subject, 'subject') ?? payload.sub;
  const jti = optionalText(call.jti, 'jti') ?? payload.jti ?? randomId();
  for (const [name, value] of [
    ['iss', iss],
    ['sub', sub],
    ['jti', jti],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.length === 0)) {
      throw invalidOptions(`payload.${name} must be a non-empty string`);
    }
  }
  const aud =
    call.audience === undefined
      ? (options.audience ?? resolveAudience(payload.aud, 'payload.aud'))
      : resolveAudience(call.audience, 'audience');
  const claims: Record<string, unknown> = { ...payload, iss, sub, aud, iat, nbf, exp, jti };
  for (const name of Object.keys(claims)) if (claims[name] === undefined) delete claims[name];
  return claims;
}

function buildHeader(
  options: ResolvedSignerOptions,
  call: Partial<JwtSignOverrides>,
): Record<string, unknown> {
  const extra = call.header === undefined ? {} : plainObject(call.header, 'header');
  if (Object.hasOwn(extra, 'alg')) {
    throw invalidOptions('header may not set "alg"; it is the signer\'s algorithm');
  }
  const kid = optionalText(call.kid, 'kid') ?? options.kid;
  return { alg: options.algorithm, typ: options.typ, ...(kid === undefined ? {} : { kid }), ...extra };
}

/**
 * Creates a signer for compact JWS tokens. Options are checked here: `invalid-options`, `invalid-key`
 * for a key that cannot sign with `algorithm`, `lifetime-too-long` for a lifetime over the cap.
 *
 * @example
 * const signer = createJwtSigner({ algorithm: 'EdDSA', key: privateJwk, issuer: 'https://billing.internal' });
 * const token = await signer.sign({ scope: 'invoices:read' }, { subject: 'svc-reports' });
 */
export function createJwtSigner(opts: JwtSignerOptions): JwtSigner {
  const options = resolveJwtSignerOptions(opts);
  const params = signParams(algorithmSpec(options.algorithm));
  return {
    async sign(payload: Record<string, unknown>, overrides?: JwtSignOverrides): Promise<string> {
      const call = optionsObject<JwtSignOverrides>(overrides, 'sign options');
      const claims = buildClaims(options, plainObject(payload, 'payload'), call);
      const header = buildHeader(options, call);
      const headerPart = encodeBase64UrlText(serialize(header, 'header'));
      const signingInput = `${headerPart}.${encodeBase64UrlText(serialize(claims, 'payload'))}`;
      const key = await importKeyFor(options.key, options.algorithm, 'sign', 'invalid-key');
      let signature: ArrayBuffer;
      try {
        signature = await crypto.subtle.sign(params, key, encoder.encode(signingInput));
      } catch (error) {
        throw new JwtError('invalid-key', `Signing with ${options.algorithm} failed`, { cause: error });
      }
      return `${signingInput}.${encodeBase64Url(new Uint8Array(signature))}`;
    },
  };
}

/**
 * The site's access tokens: self-contained JWTs in the RFC 9068 profile (header `typ: at+jwt`),
 * signed with HS256 under the key of `resolveTokenKey`. No token is stored: any replica holding the
 * same key verifies any replica's token, and a token cannot be revoked before it expires (they are
 * short-lived, carry only the public scope `docs:read`, and every resource works without one).
 */
import { decodeBase64Url, randomId } from '@charter/core';
import type { JwtPayload, JwtSigner, JwtVerifier } from '@charter/jwt';
import { allResourceUrls, resolveSiteOrigin } from './resources.ts';

/** Lifetime of an access token: one hour, in seconds (the token response's `expires_in`). */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/** The only scope the site issues (RFC 6749 §3.3 scope-token). */
export const DOCS_READ_SCOPE = 'docs:read';

/** The JWS header `typ` of an access token (RFC 9068 §2.1). */
export const ACCESS_TOKEN_TYP = 'at+jwt';

/** The `sub` of a token issued without a `client_id` (RFC 9068 §2.2 requires a `sub`). */
export const ANONYMOUS_SUBJECT = 'anonymous';

/**
 * Leeway for `iat` only, in seconds: a replica whose clock runs a little behind the issuing one still
 * accepts a fresh token. Expiry is checked without leeway, so introspection never calls a token past
 * its `exp` active.
 */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

/** The claims of a valid access token (RFC 9068 §2.2). */
export interface AccessTokenClaims {
  /** The issuer: the site origin. */
  readonly iss: string;
  /** The `client_id` the client sent, or `anonymous`. */
  readonly sub: string;
  /** The `client_id` the client sent, when it sent one. */
  readonly client_id?: string;
  /** The resource URL(s) the token is for (RFC 8707 §2); the origin when none was requested. */
  readonly aud: string | readonly string[];
  /** Space-separated scopes; always `docs:read`. */
  readonly scope: string;
  /** Issued at, seconds since the epoch. */
  readonly iat: number;
  /** Expires at, seconds since the epoch. */
  readonly exp: number;
  /** Unique token id: 16 bytes from the CSPRNG, base64url. */
  readonly jti: string;
}

/** Options of `createTokenService`. */
export interface TokenServiceOptions {
  /** The site origin, `iss` of every token (`https://charter.dev`; no path, no trailing slash). */
  origin: string;
  /** The HMAC key, at least 32 bytes (`resolveTokenKey`). */
  key: Uint8Array;
  /** The clock in seconds since the epoch; default `Date.now()` in whole seconds. */
  now?: () => number;
  /** Lifetime of issued tokens in seconds; default `ACCESS_TOKEN_LIFETIME_SECONDS` (3600). */
  lifetimeSeconds?: number;
}

/** What to issue a token for. */
export interface IssueRequest {
  /** The client's `client_id`, when it sent one. */
  clientId?: string;
  /** Space-separated granted scopes. */
  scope: string;
  /** The `aud`: one resource URL, or several (an array in the token). */
  audience: string | readonly string[];
}

/** An issued token and what it says. */
export interface IssuedToken {
  /** The compact JWT. */
  readonly accessToken: string;
  /** Seconds until it expires (the token response's `expires_in`). */
  readonly expiresIn: number;
  readonly claims: AccessTokenClaims;
}

/** Per-call verification settings. */
export interface TokenVerifyOptions {
  /**
   * Resource URL(s) the token must be for: its `aud` must contain one of them. Default: any
   * resource of this origin (introspection).
   */
  audience?: string | readonly string[];
}

/** Issues and verifies the site's access tokens. */
export interface TokenService {
  /** The origin, as resolved (the `iss` of every token). */
  readonly origin: string;
  /** Lifetime of issued tokens in seconds. */
  readonly lifetimeSeconds: number;
  /** Signs a new token. */
  issue(request: IssueRequest): Promise<IssuedToken>;
  /** The claims of a valid token, or undefined for anything else; never throws on bad input. */
  verify(token: unknown, options?: TokenVerifyOptions): Promise<AccessTokenClaims | undefined>;
}

const wholeSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * `@charter/jwt`, loaded with the first token issued or checked: the compiled site's start (issue 18,
 * item 6) then holds none of its code, which the executable's second entry (`site/lazy-modules.ts`)
 * carries; `require` keeps the first `verify` or `issue` synchronous up to the signing itself.
 */
const jwt = (): typeof import('@charter/jwt') => require('@charter/jwt') as typeof import('@charter/jwt');

function resolveTokenServiceOptions(options: TokenServiceOptions): Required<TokenServiceOptions> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createTokenService options must be an object');
  }
  const origin = resolveSiteOrigin(options.origin, 'createTokenService: option "origin"');
  if (!(options.key instanceof Uint8Array) || options.key.length < 32) {
    throw new TypeError('createTokenService: option "key" must be a Uint8Array of at least 32 bytes');
  }
  const now = options.now ?? wholeSeconds;
  if (typeof now !== 'function') throw new TypeError('createTokenService: option "now" must be a function');
  const lifetimeSeconds = options.lifetimeSeconds ?? ACCESS_TOKEN_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetimeSeconds) || lifetimeSeconds < 1) {
    throw new RangeError('createTokenService: option "lifetimeSeconds" must be a positive whole number');
  }
  // A copy: a caller wiping or reusing its buffer must not change the key tokens are checked with.
  return { origin, key: new Uint8Array(options.key), now, lifetimeSeconds };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The claims part of a compact JWT this service just signed (trusted: it never comes from a client). */
function decodePayload(token: string): JwtPayload {
  const bytes = decodeBase64Url(token.split('.')[1] ?? '');
  if (bytes === undefined) throw new Error('issue: the signed token is not a compact JWS');
  return JSON.parse(new TextDecoder().decode(bytes)) as JwtPayload;
}

/** The claims of a token whose signature verified, if they have the shape this service issues. */
function accessTokenClaims(payload: JwtPayload): AccessTokenClaims | undefined {
  const { iss, sub, aud, scope, iat, exp, jti, client_id: clientId } = payload;
  if (!isText(iss) || !isText(sub) || !isText(scope) || !isText(jti)) return undefined;
  if (typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  if (clientId !== undefined && !isText(clientId)) return undefined;
  const audience = typeof aud === 'string' ? aud : Array.isArray(aud) ? Object.freeze([...aud]) : undefined;
  if (audience === undefined) return undefined;
  return Object.freeze({
    iss,
    sub,
    ...(clientId === undefined ? {} : { client_id: clientId }),
    aud: audience,
    scope,
    iat,
    exp,
    jti,
  });
}

/**
 * The token service of one origin and key. `issue` signs RFC 9068 access tokens; `verify` accepts
 * only HS256 tokens with `typ: at+jwt`, this origin as `iss`, an unexpired `exp` and an `aud`
 * naming the requested resource (or any resource of this origin when none is given).
 */
export function createTokenService(options: TokenServiceOptions): TokenService {
  const { origin, key, now, lifetimeSeconds } = resolveTokenServiceOptions(options);
  // The signer and the verifier are made when a token is first issued or checked: most starts (the
  // compiled site's first page among them, issue 18 item 6) do neither, and what they are made from
  // was checked just above.
  let signer: JwtSigner | undefined;
  let verifier: JwtVerifier | undefined;
  const signerOf = (): JwtSigner =>
    (signer ??= jwt().createJwtSigner({
      algorithm: 'HS256',
      key,
      issuer: origin,
      typ: ACCESS_TOKEN_TYP,
      expiresInSeconds: lifetimeSeconds,
      maxLifetimeSeconds: lifetimeSeconds,
      now,
    }));
  const verifierOf = (): JwtVerifier =>
    (verifier ??= jwt().createJwtVerifier({
      algorithms: ['HS256'],
      key,
      issuer: origin,
      typ: ACCESS_TOKEN_TYP,
      clockSkewSeconds: TOKEN_CLOCK_SKEW_SECONDS,
      maxLifetimeSeconds: lifetimeSeconds,
      now,
    }));
  const everyResource = allResourceUrls(origin);

  async function issue(request: IssueRequest): Promise<IssuedToken> {
    const { clientId, scope, audience } = request;
    if (clientId !== undefined && !isText(clientId)) {
      throw new TypeError('issue: clientId must be a non-empty string');
    }
    if (!isText(scope)) throw new TypeError('issue: scope must be a non-empty string');
    const aud = typeof audience === 'string' ? audience : [...audience];
    if (aud.length === 0 || (Array.isArray(aud) && !aud.every(isText))) {
      throw new TypeError('issue: audience must be a resource URL or a non-empty list of them');
    }
    const payload: Record<string, unknown> = { scope };
    if (clientId !== undefined) payload.client_id = clientId;
    // RFC 9068 §2.2: `jti` is required; 16 bytes from the CSPRNG.
    const accessToken = await signerOf().sign(payload, {
      subject: clientId ?? ANONYMOUS_SUBJECT,
      audience: aud,
      jti: randomId(16),
    });
    // The signer chose `iat` and `exp`; read them back from the token it just made.
    const claims = accessTokenClaims(decodePayload(accessToken));
    if (claims === undefined) throw new Error('issue: the signed token lacks a claim it was given');
    return Object.freeze({ accessToken, expiresIn: claims.exp - claims.iat, claims });
  }

  async function verify(
    token: unknown,
    verifyOptions: TokenVerifyOptions = {},
  ): Promise<AccessTokenClaims | undefined> {
    if (typeof token !== 'string' || token.length === 0) return undefined;
    const audience = verifyOptions?.audience ?? everyResource;
    try {
      const { payload } = await verifierOf().verify(token, {
        audience: typeof audience === 'string' ? audience : [...audience],
      });
      const claims = accessTokenClaims(payload);
      // The verifier's leeway is for `iat` across replicas; `exp` is held to the second (RFC 7519 §4.1.4).
      if (claims === undefined || now() >= claims.exp) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }

  return Object.freeze({ origin, lifetimeSeconds, issue, verify });
}

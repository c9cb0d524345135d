// JWT verification (RFC 7519 §7.2, RFC 7515 §5.2) with the algorithm list pinned by the caller,
// following the JWT BCP (RFC 8725): structure and algorithm are checked before any crypto, the
// signature before any claim is trusted.
import {
  algorithmSpec,
  isJwtAlgorithm,
  isNoneAlgorithm,
  type JwtAlgorithm,
  signParams,
} from './algorithms.ts';
import { assertCriticalHeaders, decodeJws, isRegisteredHeaderName } from './decode.ts';
import { JwtError } from './errors.ts';
import { importKeyFor, isJwtKeyInput, type JwtKeyInput, keyProblem } from './keys.ts';
import { optionalFunction, optionalText, optionalTextList, optionsObject } from './options.ts';
import {
  assertMaxLifetime,
  assertSeconds,
  assertTemporalClaims,
  DEFAULT_MAX_LIFETIME_SECONDS,
  nowSeconds,
} from './temporal.ts';
import type { JwtHeader, JwtPayload, VerifiedJwt } from './types.ts';

/** Default cap on the length of a token, in characters; longer is `malformed` before decoding. */
export const DEFAULT_MAX_TOKEN_LENGTH = 8192;

/** Resolves the key for a token from its protected header (kid, alg); undefined -> JwtError 'unknown-kid'. */
export type JwtKeyResolver = (
  header: JwtHeader,
) => JwtKeyInput | undefined | Promise<JwtKeyInput | undefined>;

/** Options of `createJwtVerifier`. */
export interface JwtVerifierOptions {
  /** The algorithms accepted (required, non-empty, no duplicates); a token naming any other is refused. */
  algorithms: readonly JwtAlgorithm[];
  /** The verification key, or a function choosing one from the header (`kid`); a static key must fit every listed algorithm. */
  key: JwtKeyInput | JwtKeyResolver;
  /** Accepted `iss` values; when set, `iss` must equal one of them. Default: not checked. */
  issuer?: string | readonly string[];
  /** This service's identifiers; `aud` must contain one. Default: none, and a token with `aud` is refused (RFC 7519 §4.1.3). */
  audience?: string | readonly string[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds; default 0. */
  clockSkewSeconds?: number;
  /** Longest accepted lifetime, in seconds; default 2592000 (30 days); `Infinity` disables the cap. */
  maxLifetimeSeconds?: number;
  /** Refuse tokens without `exp`; default true. */
  requireExp?: boolean;
  /** Required header `typ`, compared case-insensitively with `application/` optional (RFC 8725 §3.11). Default: not checked. */
  typ?: string;
  /** Extension names the caller understands in `crit`; any other is refused. Default: none. */
  criticalHeaders?: readonly string[];
  /** Longest accepted token, in characters; default 8192. */
  maxTokenLength?: number;
  /** The clock, in seconds since the epoch; default `Date.now()` in whole seconds. */
  now?: () => number;
}

/** Per-call replacements of the verifier's `issuer`, `audience` and clock. */
export interface JwtVerifyOverrides {
  issuer?: string | readonly string[];
  audience?: string | readonly string[];
  now?: () => number;
}

/** A configured verifier. */
export interface JwtVerifier {
  /** Resolves the header and claims of a valid token; throws `JwtError` with a `code` otherwise. */
  verify(token: string, opts?: JwtVerifyOverrides): Promise<VerifiedJwt>;
}

interface ResolvedVerifierOptions {
  readonly algorithms: ReadonlySet<JwtAlgorithm>;
  readonly key: JwtKeyInput | JwtKeyResolver;
  readonly issuer: readonly string[] | undefined;
  readonly audience: readonly string[] | undefined;
  readonly clockSkewSeconds: number;
  readonly maxLifetimeSeconds: number;
  readonly requireExp: boolean;
  readonly typ: string | undefined;
  readonly criticalHeaders: ReadonlySet<string>;
  readonly maxTokenLength: number;
  readonly now: () => number;
}

const invalidOptions = (message: string): JwtError => new JwtError('invalid-options', message);

function resolveAlgorithms(value: unknown): ReadonlySet<JwtAlgorithm> {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidOptions('algorithms must be a non-empty array of JWT algorithms');
  }
  const seen = new Set<JwtAlgorithm>();
  for (const alg of value) {
    if (isNoneAlgorithm(alg)) {
      throw invalidOptions('algorithms may not contain "none": unsecured tokens are never accepted');
    }
    if (!isJwtAlgorithm(alg)) {
      throw invalidOptions(`algorithms contains the unknown algorithm ${JSON.stringify(alg)}`);
    }
    if (seen.has(alg)) throw invalidOptions(`algorithms lists ${alg} twice`);
    seen.add(alg);
  }
  return seen;
}

function resolveKey(value: unknown, algorithms: ReadonlySet<JwtAlgorithm>): JwtKeyInput | JwtKeyResolver {
  if (typeof value === 'function') return value as JwtKeyResolver;
  if (!isJwtKeyInput(value)) {
    throw invalidOptions(
      'key must be a CryptoKey, a Uint8Array (HMAC secret), a JSON Web Key or a resolver function',
    );
  }
  // One static key serves one kind of algorithm (RFC 8725 §3.1): listing one it cannot fit is a mistake.
  for (const alg of algorithms) {
    const problem = keyProblem(value, alg, 'verify');
    if (problem !== undefined) {
      throw new JwtError(
        'invalid-key',
        `key cannot verify ${alg} (listed in algorithms): ${problem.message}`,
      );
    }
  }
  return value;
}

function resolveCriticalHeaders(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name.length > 0)) {
    throw invalidOptions('criticalHeaders must be an array of header names');
  }
  const list = value as string[];
  for (const name of list) {
    // `b64` (RFC 7797) changes what is signed: understanding it takes more than listing it.
    if (isRegisteredHeaderName(name) || name === 'b64') {
      throw invalidOptions(`criticalHeaders may not contain "${name}"`);
    }
  }
  return new Set(list);
}

/** Validates the verifier options, filling defaults; throws `JwtError` naming the option. */
function resolveJwtVerifierOptions(opts: JwtVerifierOptions): ResolvedVerifierOptions {
  if (typeof opts !== 'object' || opts === null) {
    throw invalidOptions('createJwtVerifier needs an options object');
  }
  const algorithms = resolveAlgorithms(opts.algorithms);
  const clockSkewSeconds = opts.clockSkewSeconds ?? 0;
  assertSeconds(clockSkewSeconds, 'clockSkewSeconds');
  const maxLifetimeSeconds = opts.maxLifetimeSeconds ?? DEFAULT_MAX_LIFETIME_SECONDS;
  assertMaxLifetime(maxLifetimeSeconds, 'maxLifetimeSeconds');
  const requireExp = opts.requireExp ?? true;
  if (typeof requireExp !== 'boolean') throw invalidOptions('requireExp must be a boolean');
  const maxTokenLength = opts.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  if (!Number.isSafeInteger(maxTokenLength) || maxTokenLength < 1) {
    throw invalidOptions('maxTokenLength must be a positive integer');
  }
  const typ = optionalText(opts.typ, 'typ');
  return {
    algorithms,
    key: resolveKey(opts.key, algorithms),
    issuer: optionalTextList(opts.issuer, 'issuer'),
    audience: optionalTextList(opts.audience, 'audience'),
    clockSkewSeconds,
    maxLifetimeSeconds,
    requireExp,
    typ: typ === undefined ? undefined : normalizeTyp(typ),
    criticalHeaders: resolveCriticalHeaders(opts.criticalHeaders),
    maxTokenLength,
    now: optionalFunction<() => number>(opts.now, 'now') ?? nowSeconds,
  };
}

// RFC 7515 §4.1.9: media types are case-insensitive and "application/" may be left out.
function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

async function keyFor(key: JwtKeyInput | JwtKeyResolver, header: JwtHeader): Promise<JwtKeyInput> {
  if (typeof key !== 'function') return key;
  const found = await key(header);
  if (found === undefined || found === null) {
    // The kid is the sender's text: not echoed into messages that may reach logs or clients.
    throw new JwtError(
      'unknown-kid',
      header.kid === undefined ? 'No key for a token without kid' : "No key for the token's kid",
    );
  }
  return found;
}

async function checkSignature(
  alg: JwtAlgorithm,
  key: CryptoKey,
  input: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
): Promise<void> {
  const spec = algorithmSpec(alg);
  // ECDSA is R||S of fixed size (RFC 7518 §3.4): a DER signature or a truncated one is refused.
  let ok = spec.signatureBytes === undefined || signature.length === spec.signatureBytes;
  if (ok) {
    try {
      // For HMAC, WebCrypto's verify compares the MAC in constant time.
      ok = await crypto.subtle.verify(signParams(spec), key, signature, input);
    } catch {
      ok = false;
    }
  }
  if (!ok) throw new JwtError('invalid-signature', 'The signature does not verify');
}

function assertIssuer(payload: JwtPayload, accepted: readonly string[] | undefined): void {
  const iss: unknown = payload.iss;
  if (iss !== undefined && typeof iss !== 'string') {
    throw new JwtError('invalid-issuer', 'The "iss" claim is not a string');
  }
  if (accepted !== undefined && (iss === undefined || !accepted.includes(iss))) {
    throw new JwtError('invalid-issuer', 'The token was not issued by an accepted issuer');
  }
}

function assertAudience(payload: JwtPayload, accepted: readonly string[] | undefined): void {
  const aud: unknown = payload.aud;
  if (aud === undefined) {
    if (accepted !== undefined) throw new JwtError('invalid-audience', 'The token has no "aud" claim');
    return;
  }
  const list = typeof aud === 'string' ? [aud] : aud;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw new JwtError('invalid-audience', 'The "aud" claim is not a string or an array of strings');
  }
  // RFC 7519 §4.1.3: a recipient that does not find itself in a present "aud" MUST reject the token.
  if (accepted === undefined || !list.some((item) => accepted.includes(item))) {
    throw new JwtError('invalid-audience', 'The token is not intended for this audience');
  }
}

function assertStringClaims(payload: JwtPayload): void {
  for (const name of ['sub', 'jti'] as const) {
    if (payload[name] !== undefined && typeof payload[name] !== 'string') {
      throw new JwtError('malformed', `The "${name}" claim is not a string`);
    }
  }
}

/**
 * Creates a verifier for compact JWS tokens. Options are checked here, throwing `JwtError`
 * `invalid-options` (or `invalid-key` for a static key that cannot serve a listed algorithm).
 *
 * @example
 * const verifier = createJwtVerifier({ algorithms: ['ES256'], key: publicJwk, issuer: 'https://id.example' });
 * const { payload } = await verifier.verify(token);
 */
export function createJwtVerifier(opts: JwtVerifierOptions): JwtVerifier {
  const options = resolveJwtVerifierOptions(opts);
  return {
    async verify(token: string, overrides?: JwtVerifyOverrides): Promise<VerifiedJwt> {
      const call = optionsObject<JwtVerifyOverrides>(overrides, 'verify options');
      const issuer = call.issuer === undefined ? options.issuer : optionalTextList(call.issuer, 'issuer');
      const audience =
        call.audience === undefined ? options.audience : optionalTextList(call.audience, 'audience');
      const clock = optionalFunction<() => number>(call.now, 'now') ?? options.now;

      // 1. Structure, then the header: nothing below runs crypto on a token refused here.
      const { header, payload, signingInput, signature } = decodeJws(token, options.maxTokenLength);
      const alg = header.alg;
      if (!isJwtAlgorithm(alg) || !options.algorithms.has(alg)) {
        throw new JwtError(
          'alg-not-allowed',
          // Only a known name is echoed; anything else is the sender's text.
          isJwtAlgorithm(alg)
            ? `The algorithm ${alg} is not accepted`
            : 'The token names an unsupported algorithm',
        );
      }
      assertCriticalHeaders(header, options.criticalHeaders);
      if (
        options.typ !== undefined &&
        (typeof header.typ !== 'string' || normalizeTyp(header.typ) !== options.typ)
      ) {
        throw new JwtError('invalid-typ', 'The header "typ" is not the expected type');
      }
      // 2. The key for this header, imported for this algorithm only (a key of another kind is refused).
      const key = await importKeyFor(await keyFor(options.key, header), alg, 'verify', 'alg-not-allowed');
      // 3. The signature, before any claim is believed.
      await checkSignature(alg, key, signingInput, signature);
      // 4. The claims.
      assertTemporalClaims(payload, {
        now: clock(),
        clockSkewSeconds: options.clockSkewSeconds,
        maxLifetimeSeconds: options.maxLifetimeSeconds,
        requireExp: options.requireExp,
      });
      assertIssuer(payload, issuer);
      assertAudience(payload, audience);
      assertStringClaims(payload);
      return { header, payload };
    },
  };
}

/**
 * `jwk()`: bearer JWT authentication (RFC 6750) against a JSON Web Key set, as a preBody hook, so an
 * unauthenticated request is refused before its body is read.
 */
import {
  ForbiddenError,
  type Hooks,
  type PreBodyContext,
  ServiceUnavailableError,
  requireBearerToken,
  unauthorized,
  withHookTraits,
} from '@charter/core';
import { isJwtError, type JwtErrorCode } from '@charter/jwt';
import { userFromPayload } from './claims.ts';
import { JwksUnavailableError } from './jwks-source.ts';
import { type JwkOptions, resolveJwkOptions } from './options.ts';
import { jwksVerifierFor } from './verifier.ts';

// `error_description` per refusal (RFC 6750 §3): short, fixed texts, never the token or key material.
const DESCRIPTIONS: Readonly<Record<Exclude<JwtErrorCode, 'invalid-options'>, string>> = {
  malformed: 'The access token is malformed.',
  'alg-none': 'Unsecured access tokens are not accepted.',
  'alg-not-allowed': 'The access token is signed with an algorithm this API does not accept.',
  'crit-unsupported': 'The access token has critical header parameters this API does not understand.',
  'unknown-kid': 'The access token is signed with an unknown key.',
  'invalid-key': 'The access token is signed with a key this API cannot use.',
  'invalid-signature': 'The access token signature is invalid.',
  'invalid-issuer': 'The access token was not issued by a trusted issuer.',
  'invalid-audience': 'The access token is not intended for this API.',
  'invalid-typ': 'The access token has the wrong type.',
  'missing-exp': 'The access token has no expiry.',
  expired: 'The access token expired.',
  'not-before': 'The access token is not valid yet.',
  'issued-in-future': 'The access token was issued in the future.',
  'invalid-exp': 'The access token has an invalid exp claim.',
  'invalid-nbf': 'The access token has an invalid nbf claim.',
  'invalid-iat': 'The access token has an invalid iat claim.',
  'lifetime-too-long': 'The access token lives longer than this API accepts.',
};

/** The HTTP answer for a verification failure. */
function failure(error: unknown, realm: string): unknown {
  if (isJwtError(error) && error.code !== 'invalid-options') {
    return unauthorized({ realm, error: 'invalid_token', description: DESCRIPTIONS[error.code] });
  }
  if (error instanceof JwksUnavailableError) {
    // The caller's token may be fine: the server cannot check it now. A 401 would make clients drop
    // good tokens and stampede the identity provider; 503 with Retry-After says "try again".
    return new ServiceUnavailableError({
      detail: 'The keys to verify access tokens are unavailable; try again later.',
      retryAfterSeconds: error.retryAfterSeconds,
      cause: error,
    });
  }
  // HttpErrors from a resolver, and bugs (500), go through unchanged.
  return error;
}

/**
 * Hooks authenticating each request with a bearer JWT checked against a JWK set. On success
 * `ctx.state.user` is `{ sub, scopes, claims }` and `ctx.state.auth` is
 * `{ scheme: 'jwk', credentials: { header, payload } }`. No Authorization header (or one of another
 * scheme): 401 with a bare challenge. A malformed Bearer header: 400 `invalid_request`. A refused
 * token: 401 `invalid_token`. `verify` returning false: 403. Keys unavailable: 503.
 *
 * @example
 * app.use(jwk({
 *   jwks: 'https://id.example.com/.well-known/jwks.json',
 *   algorithms: ['RS256'],
 *   issuer: 'https://id.example.com/',
 *   audience: 'https://api.example.com',
 * }));
 */
export function jwk(options: JwkOptions): Hooks {
  const resolved = resolveJwkOptions(options);
  const verifier = jwksVerifierFor(resolved);
  const { realm, verify } = resolved;
  const challenge = Object.freeze({ scheme: 'Bearer', realm });

  const hooks: Hooks = {
    async preBody(ctx: PreBodyContext): Promise<void> {
      // ctx.headers, not ctx.request: the wrapped request is built lazily and its body stream with it.
      const headers = ctx.headers;
      const token = requireBearerToken(headers, realm);
      let verified: Awaited<ReturnType<typeof verifier.verify>>;
      try {
        verified = await verifier.verify(token);
      } catch (error) {
        throw failure(error, realm);
      }
      // Before the principal is recorded: a refused token leaves nothing on ctx.state.
      if (verify !== undefined && (await verify(verified.payload, ctx)) === false) {
        throw new ForbiddenError('The access token does not grant access to this resource.');
      }
      ctx.state.auth = Object.freeze({ scheme: 'jwk', credentials: Object.freeze(verified), challenge });
      ctx.state.user = userFromPayload(verified.payload);
    },
  };
  return withHookTraits(hooks, { authenticates: true });
}

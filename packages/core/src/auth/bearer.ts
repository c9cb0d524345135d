/**
 * Bearer token authentication, RFC 6750, header method only (§2.1): `Authorization: Bearer <token>`.
 *
 * The form-body method (§2.2) needs the body, which a preBody hook must not read, and the URI query
 * method (§2.3) puts the token in URLs that logs, proxies, browser history and `Referer` keep (§5.3);
 * neither is accepted. A token sent that way is treated as no credentials at all.
 */
import { requireBearerToken } from './bearer-token.ts';
import { unauthorized } from './challenge.ts';
import {
  assertVerify,
  type MaybePromise,
  resolveLength,
  resolveRealm,
  runVerify,
  type VerifyResult,
} from './credentials.ts';
import { type Hooks, type PreBodyContext, withHookTraits } from '../types/index.ts';

/** Options of `bearer()`. */
export interface BearerOptions {
  /**
   * Checks a token (an opaque token against a store, a JWT against keys...). Answer `true`, a principal
   * `{ sub?, scopes?, claims? }`, or `false`/`null`/`undefined` to refuse (401 `invalid_token`). A thrown
   * HttpError is the answer; any other throw becomes a 500 that names nothing. Required.
   */
  verify(token: string, ctx: PreBodyContext): MaybePromise<VerifyResult>;
  /** Protection space named in the challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
  /**
   * Longest token, in characters, handed to `verify`; a longer one is refused (401 `invalid_token`)
   * without calling it. Default 8192: room for a large JWT, and a bound on the work a caller can cause.
   */
  maxTokenLength?: number;
}

/** `bearer` options after validation. */
export interface ResolvedBearerOptions {
  readonly verify: BearerOptions['verify'];
  readonly realm: string;
  readonly maxTokenLength: number;
}

/** Validates `bearer` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveBearerOptions(options: BearerOptions): ResolvedBearerOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('bearer options must be an object');
  assertVerify('bearer', options.verify);
  return Object.freeze({
    verify: options.verify,
    realm: resolveRealm('bearer', options.realm),
    maxTokenLength: resolveLength('bearer', 'maxTokenLength', options.maxTokenLength, 8192),
  });
}

/**
 * Authenticates `Authorization: Bearer <token>` in preBody, so an unauthenticated upload is refused
 * before its body is read. On success sets `ctx.state.auth = { scheme: 'bearer', credentials: token }`
 * and `ctx.state.user`.
 *
 * - no credentials, or another scheme: 401 `Bearer realm="api"`, no `error` (RFC 6750 §3.1);
 * - a Bearer header that is not `Bearer <b64token>` (RFC 6750 §2.1), e.g. two tokens: 400 with
 *   `error="invalid_request"` (RFC 6750 §3.1);
 * - a token `verify` refuses, or one longer than `maxTokenLength`: 401 `error="invalid_token"`.
 */
export function bearer(options: BearerOptions): Hooks {
  const { verify, realm, maxTokenLength } = resolveBearerOptions(options);
  const invalidToken = (description: string) => unauthorized({ realm, error: 'invalid_token', description });
  return withHookTraits(
    {
      async preBody(ctx: PreBodyContext): Promise<void> {
        const token = requireBearerToken(ctx.headers, realm);
        if (token.length > maxTokenLength) throw invalidToken('The access token is too long.');
        const user = await runVerify('bearer', () => verify(token, ctx));
        if (user === undefined) throw invalidToken('The access token is invalid or expired.');
        ctx.state.auth = Object.freeze({ scheme: 'bearer', credentials: token });
        ctx.state.user = user;
      },
    },
    { authenticates: true },
  );
}

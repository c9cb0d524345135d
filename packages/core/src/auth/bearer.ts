/**
 * Bearer token authentication, RFC 6750, header method only (§2.1): `Authorization: Bearer <token>`.
 *
 * The form-body method (§2.2) needs the body, which a preBody hook must not read, and the URI query
 * method (§2.3) puts the token in URLs that logs, proxies, browser history and `Referer` keep (§5.3);
 * neither is accepted. A token sent that way is treated as no credentials at all.
 */
import { malformedBearer, parseBearerAuthorization } from './bearer-token.ts';
import { formatChallenge, unauthorized } from './challenge.ts';
import { type CredentialRejection, isCredentialRejection } from '../errors/credential-rejection.ts';
import {
  assertVerify,
  type MaybePromise,
  ownValue,
  resolveFlag,
  resolveLength,
  resolveRealm,
  runVerify,
  type VerifyResult,
} from './credentials.ts';
import { type Hooks, type PreBodyContext, withHookTraits } from '../types/index.ts';
import type { AuthChallenge } from './types.ts';
import { isHttpError } from '../errors/index.ts';

/** Options of `bearer()`. */
export interface BearerOptions {
  /**
   * Checks a token (an opaque token against a store, a JWT against keys...). Answer `true`, a principal
   * `{ sub?, scopes?, claims? }`, or `false`/`null`/`undefined` to refuse (401 `invalid_token`). A thrown
   * HttpError is the answer; a thrown credential rejection (charter/jwt's `JwtError` from
   * `createJwtVerifier(...).verify`: expired, bad signature, wrong audience...) is a 401 `invalid_token`
   * with its code in the log; any other throw becomes a 500 that names nothing. Required.
   */
  verify(token: string, ctx: PreBodyContext): MaybePromise<VerifyResult>;
  /** Protection space named in the challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
  /**
   * Longest token, in characters, handed to `verify`; a longer one is refused (401 `invalid_token`)
   * without calling it. Default 8192: room for a large JWT, and a bound on the work a caller can cause.
   */
  maxTokenLength?: number;
  /**
   * Let a request without an Authorization header through anonymously (`ctx.state.user` stays
   * undefined), for resources that are public but serve more to identified callers. Credentials
   * that are sent are still checked: another scheme, a malformed header or a refused token get
   * the same 400/401 as without this option, since a client that sends credentials means to use
   * them. Default false.
   */
  optional?: boolean;
  /**
   * URL of the resource's OAuth protected-resource metadata (RFC 9728 §3), sent as the
   * `resource_metadata` auth-param of every 401 challenge (RFC 9728 §5.1) so a client can find the
   * authorization server. Absolute `https:` URL (`http:` only for loopback hosts). Default none.
   */
  resourceMetadata?: string;
}

/** `bearer` options after validation. */
export interface ResolvedBearerOptions {
  readonly verify: BearerOptions['verify'];
  readonly realm: string;
  readonly maxTokenLength: number;
  readonly optional: boolean;
  readonly resourceMetadata: string | undefined;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function resolveResourceMetadata(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  const secure =
    url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (url === undefined || !secure || url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new TypeError(
      'bearer option "resourceMetadata" must be an absolute https: URL (http: only on loopback) without credentials or fragment',
    );
  }
  // Checked as a challenge value too: no control or non-Latin-1 characters reach the header.
  formatChallenge({ scheme: 'Bearer', params: { resource_metadata: value as string } });
  return value as string;
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
    optional: resolveFlag('bearer', 'optional', options.optional),
    resourceMetadata: resolveResourceMetadata(options.resourceMetadata),
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
  const { verify, realm, maxTokenLength, optional, resourceMetadata } = resolveBearerOptions(options);
  const params = resourceMetadata === undefined ? undefined : { resource_metadata: resourceMetadata };
  const challenge: AuthChallenge = Object.freeze({ scheme: 'Bearer', realm, ...(params && { params }) });
  const invalidToken = (description: string, cause?: unknown) =>
    unauthorized({ realm, error: 'invalid_token', description, params, cause });
  return withHookTraits(
    {
      preBody(ctx: PreBodyContext): Promise<void> | undefined {
        const credentials = parseBearerAuthorization(ownValue(ctx.headers, 'authorization'));
        // An anonymous request on an optional resource passes without making a promise.
        if (credentials.kind === 'missing' && optional) return undefined;
        if (credentials.kind === 'malformed') throw malformedBearer(realm, credentials.reason, params);
        if (credentials.kind !== 'token') throw unauthorized({ realm, params });
        const token = credentials.token;
        if (token.length > maxTokenLength) throw invalidToken('The access token is too long.');
        return (async () => {
          let rejection: CredentialRejection | undefined;
          const user = await runVerify('bearer', async () => {
            try {
              return await verify(token, ctx);
            } catch (error) {
              // A refused token (RFC 6750 §3.1 invalid_token), not a broken check: no 500.
              if (!isCredentialRejection(error) || isHttpError(error)) throw error;
              rejection = error;
              return undefined;
            }
          });
          if (user === undefined) throw invalidToken('The access token is invalid or expired.', rejection);
          ctx.state.auth = Object.freeze({ scheme: 'bearer', credentials: token, challenge });
          ctx.state.user = user;
        })();
      },
    },
    optional ? { authenticatesOptionally: true } : { authenticates: true },
  );
}

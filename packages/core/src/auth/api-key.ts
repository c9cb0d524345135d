/**
 * API key authentication from a header, a query parameter or a cookie: the three locations of an
 * OpenAPI 3.1 `apiKey` security scheme. Header-only (the query string and cookies arrive with the
 * headers), so it runs in preBody and refuses before the body is read.
 */
import { formatChallenge } from './challenge.ts';
import {
  API_KEY_LOCATIONS,
  type ApiKeyLocation,
  apiKeyNameProblem,
  assertVerify,
  type MaybePromise,
  ownValue,
  resolveLength,
  resolveRealm,
  runVerify,
  type VerifyResult,
} from './credentials.ts';
import { BadRequestError, UnauthorizedError } from '../errors/index.ts';
import { parseCookieHeader, timingSafeEqual } from '../security/index.ts';
import { type HookTraits, type Hooks, type PreBodyContext, withHookTraits } from '../types/index.ts';

export type { ApiKeyLocation } from './credentials.ts';

/** Options of `apiKey()`: give `verify` or `keys`, not both. */
export interface ApiKeyOptions {
  /**
   * Where the key travels. Prefer `header`: a key in the query string ends up in access logs, proxy
   * logs, browser history and `Referer` (the reason RFC 6750 §5.3 gives against tokens in URLs), and
   * a key in a cookie is sent by the browser on cross-site requests too (pair it with `csrf()`).
   * Required.
   */
  in: ApiKeyLocation;
  /** Header, query parameter or cookie name (headers are matched case-insensitively). Required. */
  name: string;
  /**
   * Checks a key. Answer `true`, a principal `{ sub?, scopes?, claims? }`, or `false`/`null`/`undefined`
   * to refuse (401). A thrown HttpError is the answer; any other throw becomes a 500 that names nothing.
   */
  verify?(key: string, ctx: PreBodyContext): MaybePromise<VerifyResult>;
  /**
   * A fixed table of label to key (`{ billing: env.BILLING_KEY }`): every entry is compared timing-safe;
   * the principal is `{ sub: <label>, scopes: [] }`. The keys are declared to the App's boot guards as
   * secrets, so a short or placeholder key is reported (and refused in production).
   */
  keys?: Readonly<Record<string, string>>;
  /** Protection space named in the challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
  /** Longest key, in characters, handed to `verify`; a longer one is refused without calling it. Default 4096. */
  maxKeyLength?: number;
}

/** `apiKey` options after validation: one verify function, whichever option gave it. */
export interface ResolvedApiKeyOptions {
  readonly in: ApiKeyLocation;
  readonly name: string;
  readonly verify: (key: string, ctx: PreBodyContext) => MaybePromise<VerifyResult>;
  readonly realm: string;
  readonly maxKeyLength: number;
  /** The `keys` table as boot-guard secrets (empty with `verify`). */
  readonly secrets: NonNullable<HookTraits['secrets']>;
}

function tableVerifier(keys: Readonly<Record<string, string>>): ResolvedApiKeyOptions['verify'] {
  const entries = Object.entries(keys);
  if (entries.length === 0) throw new TypeError('apiKey option "keys" must have at least one entry');
  for (const [label, key] of entries) {
    if (typeof key !== 'string' || key === '') {
      throw new TypeError(
        `apiKey option "keys": the key of ${JSON.stringify(label)} must be a non-empty string`,
      );
    }
  }
  return (presented) => {
    let match = -1;
    // Every entry is compared, so the time taken says nothing about which key (if any) matched.
    for (let i = 0; i < entries.length; i++) {
      if (timingSafeEqual(presented, (entries[i] as [string, string])[1])) match = i;
    }
    const found = entries[match];
    return found === undefined ? false : { sub: found[0] };
  };
}

/** Validates `apiKey` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveApiKeyOptions(options: ApiKeyOptions): ResolvedApiKeyOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('apiKey options must be an object');
  const location = options.in;
  if (!API_KEY_LOCATIONS.includes(location)) {
    throw new TypeError(
      `apiKey option "in" must be "header", "query" or "cookie", got ${JSON.stringify(location)}`,
    );
  }
  const problem = apiKeyNameProblem(location, options.name);
  if (problem !== undefined) throw new TypeError(`apiKey option "name" ${problem}`);
  const { verify, keys } = options;
  if ((verify === undefined) === (keys === undefined)) {
    throw new TypeError('apiKey needs exactly one of the options "verify" and "keys"');
  }
  let check: ResolvedApiKeyOptions['verify'];
  let secrets: NonNullable<HookTraits['secrets']> = [];
  if (keys !== undefined) {
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) {
      throw new TypeError('apiKey option "keys" must be a record of label to key');
    }
    check = tableVerifier(keys);
    secrets = Object.entries(keys).map(([label, value]) => ({
      where: `apiKey option "keys.${label}"`,
      value,
    }));
  } else {
    assertVerify('apiKey', verify);
    check = verify as ResolvedApiKeyOptions['verify'];
  }
  return Object.freeze({
    in: location,
    name: location === 'header' ? options.name.toLowerCase() : options.name,
    verify: check,
    realm: resolveRealm('apiKey', options.realm),
    maxKeyLength: resolveLength('apiKey', 'maxKeyLength', options.maxKeyLength, 4096),
    secrets: Object.freeze(secrets),
  });
}

/** The key's raw value(s) at its location: a string, several (ambiguous), or undefined. */
function presented(
  ctx: PreBodyContext,
  location: ApiKeyLocation,
  name: string,
): string | string[] | undefined {
  if (location === 'header') return ownValue(ctx.headers, name);
  if (location === 'query') return ownValue(ctx.query, name);
  const cookie = ownValue(ctx.headers, 'cookie');
  const values = cookie === undefined ? undefined : parseCookieHeader(cookie).get(name);
  return values === undefined || values.length > 1 ? values : values[0];
}

/**
 * Authenticates an API key in preBody. On success sets `ctx.state.auth = { scheme: 'apiKey',
 * credentials: key }` and `ctx.state.user` (with `keys`, `sub` is the label).
 *
 * - no key, or an empty one: 401 with `ApiKey realm="api", in="header", name="x-api-key"` (no registered
 *   HTTP scheme exists for API keys; RFC 9110 §15.5.2 still requires a challenge on every 401);
 * - the parameter or cookie given twice: 400, since which one counts would be a guess (parameter pollution);
 * - a key `verify` refuses, or one longer than `maxKeyLength`: 401.
 */
export function apiKey(options: ApiKeyOptions): Hooks {
  const resolved = resolveApiKeyOptions(options);
  const { in: location, name, verify, realm, maxKeyLength, secrets } = resolved;
  const challenge = formatChallenge({ scheme: 'ApiKey', params: { realm, in: location, name } });
  const refuse = (detail: string) => new UnauthorizedError({ detail, challenge });
  const hooks: Hooks = {
    async preBody(ctx: PreBodyContext): Promise<void> {
      const value = presented(ctx, location, name);
      if (Array.isArray(value)) {
        throw new BadRequestError(
          `The API key ${location} "${name}" must be sent once, not ${value.length} times.`,
        );
      }
      if (value === undefined || value === '')
        throw refuse(`An API key is required in the ${location} "${name}".`);
      if (value.length > maxKeyLength) throw refuse('The API key is invalid.');
      const user = await runVerify('apiKey', () => verify(value, ctx));
      if (user === undefined) throw refuse('The API key is invalid.');
      ctx.state.auth = Object.freeze({ scheme: 'apiKey', credentials: value });
      ctx.state.user = user;
    },
  };
  return withHookTraits(
    hooks,
    secrets.length > 0 ? { authenticates: true, secrets } : { authenticates: true },
  );
}

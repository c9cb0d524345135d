/**
 * HTTP Basic authentication, RFC 7617: `Authorization: Basic base64(user-id ":" password)`, decoded
 * strictly (RFC 4648 §3.3, §3.5) as UTF-8 (§2.1, the `charset="UTF-8"` the challenge announces).
 */
import { formatChallenge } from './challenge.ts';
import {
  assertVerify,
  type MaybePromise,
  ownValue,
  parseAuthorization,
  resolveRealm,
  runVerify,
  type VerifyResult,
} from './credentials.ts';
import type { AuthUser } from './types.ts';
import { UnauthorizedError } from '../errors/index.ts';
import { decodeBase64, timingSafeEqual } from '../security/index.ts';
import { type Hooks, type PreBodyContext, withHookTraits } from '../types/index.ts';

/** Options of `basic()`: give `verify` or `users`, not both. */
export interface BasicOptions {
  /**
   * Checks a user name and password (e.g. with `passwordVerify` against a stored hash). Answer `true`, a
   * principal `{ sub?, scopes?, claims? }`, or `false`/`null`/`undefined` to refuse (401). A thrown
   * HttpError is the answer; any other throw becomes a 500 that names nothing.
   */
  verify?(username: string, password: string, ctx: PreBodyContext): MaybePromise<VerifyResult>;
  /**
   * A fixed table of user name to password, for internal tools and tests: every entry is compared
   * timing-safe, whatever the name. The principal is `{ sub: <user name>, scopes: [] }`.
   */
  users?: Readonly<Record<string, string>>;
  /** Protection space named in the challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
}

/** `basic` options after validation: one verify function, whichever option gave it. */
export interface ResolvedBasicOptions {
  readonly verify: (username: string, password: string, ctx: PreBodyContext) => MaybePromise<VerifyResult>;
  readonly realm: string;
}

/** Longest accepted base64 credential, in characters (3 KiB decoded): a bound on decoding work. */
export const MAX_BASIC_CREDENTIALS_LENGTH = 4096;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** RFC 5234 CTL: %x00-1F / %x7F, which RFC 7617 §2 forbids in both user-id and password. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Decodes the token68 of a Basic `Authorization` header into user name and password, or undefined when
 * it is not canonical base64, not UTF-8, has no `:` (the user-id cannot contain one, RFC 7617 §2, so
 * the first colon splits), holds a control character, or is longer than 4096 characters. Both parts are
 * normalised to NFC, as the UTF-8 charset asks (RFC 7617 §2.1). Never throws.
 */
export function decodeBasicCredentials(token: string): { username: string; password: string } | undefined {
  if (typeof token !== 'string' || token.length > MAX_BASIC_CREDENTIALS_LENGTH) return undefined;
  // Canonical padded base64 (RFC 7617 §2 uses RFC 4648 §4): one spelling per credential.
  const bytes = token === '' ? undefined : decodeBase64(token, 'base64', { padded: true });
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon < 0 || hasControl(text)) return undefined;
  return {
    username: text.slice(0, colon).normalize('NFC'),
    password: text.slice(colon + 1).normalize('NFC'),
  };
}

/** A verify function over a fixed table; every entry is compared so timing says nothing about which matched. */
function tableVerifier(users: Readonly<Record<string, string>>): ResolvedBasicOptions['verify'] {
  const entries = Object.entries(users);
  if (entries.length === 0) throw new TypeError('basic option "users" must have at least one entry');
  for (const [name, password] of entries) {
    if (name.includes(':') || hasControl(name)) {
      throw new TypeError(
        `basic option "users": user name ${JSON.stringify(name)} has a ":" or a control character`,
      );
    }
    if (typeof password !== 'string' || password === '' || hasControl(password)) {
      throw new TypeError(
        `basic option "users": the password of ${JSON.stringify(name)} must be a non-empty string without control characters`,
      );
    }
  }
  const table = entries.map(
    ([name, password]) => [name.normalize('NFC'), password.normalize('NFC')] as const,
  );
  return (username, password) => {
    let match = -1;
    for (let i = 0; i < table.length; i++) {
      const [name, secret] = table[i] as readonly [string, string];
      // Both comparisons always run: `&` rather than `&&`.
      const hit = Number(timingSafeEqual(username, name)) & Number(timingSafeEqual(password, secret));
      if (hit === 1) match = i;
    }
    const found = table[match];
    return found === undefined ? false : { sub: found[0] };
  };
}

/** Validates `basic` options and fills defaults; throws a TypeError naming the option. */
export function resolveBasicOptions(options: BasicOptions): ResolvedBasicOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('basic options must be an object');
  const { verify, users } = options;
  if ((verify === undefined) === (users === undefined)) {
    throw new TypeError('basic needs exactly one of the options "verify" and "users"');
  }
  let check: ResolvedBasicOptions['verify'];
  if (users !== undefined) {
    if (typeof users !== 'object' || users === null || Array.isArray(users)) {
      throw new TypeError('basic option "users" must be a record of user name to password');
    }
    check = tableVerifier(users);
  } else {
    assertVerify('basic', verify);
    check = verify as ResolvedBasicOptions['verify'];
  }
  return Object.freeze({ verify: check, realm: resolveRealm('basic', options.realm) });
}

/**
 * Authenticates `Authorization: Basic ...` in preBody, so an unauthenticated upload is refused before
 * its body is read. On success sets `ctx.state.auth = { scheme: 'basic', credentials: username }` (the
 * password is never kept) and `ctx.state.user` (`sub` defaults to the user name).
 *
 * Every refusal is a 401 with `Basic realm="api", charset="UTF-8"`: missing credentials, malformed
 * ones (RFC 7617 defines no error parameter, and a 401 lets a browser ask again) and wrong ones.
 */
export function basic(options: BasicOptions): Hooks {
  const { verify, realm } = resolveBasicOptions(options);
  // RFC 7617 §2 defines only realm and charset: the reason goes in the problem detail, not the challenge.
  const challenge = formatChallenge({ scheme: 'Basic', params: { realm, charset: 'UTF-8' } });
  const refuse = (detail = 'Authentication is required to access this resource.') =>
    new UnauthorizedError({ detail, challenge });
  return withHookTraits(
    {
      async preBody(ctx: PreBodyContext): Promise<void> {
        const header = ownValue(ctx.headers, 'authorization');
        const parts = header === undefined ? undefined : parseAuthorization(header);
        if (parts === undefined || parts.scheme.toLowerCase() !== 'basic') throw refuse();
        const decoded = decodeBasicCredentials(parts.rest);
        if (decoded === undefined) throw refuse('The Basic credentials are malformed.');
        const { username, password } = decoded;
        const principal = await runVerify('basic', () => verify(username, password, ctx));
        if (principal === undefined) throw refuse('The user name or password is incorrect.');
        const user: AuthUser =
          principal.sub === undefined ? Object.freeze({ ...principal, sub: username }) : principal;
        ctx.state.auth = Object.freeze({ scheme: 'basic', credentials: username });
        ctx.state.user = user;
      },
    },
    { authenticates: true },
  );
}

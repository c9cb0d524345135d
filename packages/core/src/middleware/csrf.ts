/**
 * Cross-site request forgery protection for cookie-authenticated routes, two layers deep:
 *
 * 1. Fetch Metadata (W3C Fetch Metadata Request Headers §2.1): a state-changing request whose
 *    `Sec-Fetch-Site` is `cross-site` or `same-site` is refused before anything else. Browsers
 *    without Fetch Metadata send `Origin` on such requests (Fetch §3.1), which must then name this
 *    host. A trusted origin (`trustedOrigins`) passes this layer.
 * 2. Double-submit token (OWASP CSRF cheat sheet): the token in a cookie must equal the token in a
 *    header or form field, compared in constant time. A cross-site page can make the browser send
 *    the cookie but can neither read it nor set the header.
 *
 * Safe methods (GET, HEAD, OPTIONS) pass, and get a token cookie when they have none.
 */
import { ForbiddenError } from '../errors/index.ts';
import {
  assertCookieAttributes,
  type CookieAttributes,
  readRequestCookie,
  serializeCookie,
} from '../security/cookies.ts';
import { isBase64UrlOfLength } from '../security/base64.ts';
import { isProductionEnv } from '../security/environment.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { randomId, timingSafeEqual } from '../security/tokens.ts';
import { type AnyContext, type Hooks, withHookTraits } from '../types/index.ts';
import { serialiseOrigin } from './cors.ts';
import { setResponseHeaders } from '../pipeline/response-headers.ts';

/** Options of `csrf()`. */
export interface CsrfOptions {
  /**
   * Secure cookie: default `NODE_ENV === 'production'`. When secure, the cookie is
   * `__Host-csrf; Secure; Path=/` (RFC 6265bis §4.1.3: no subdomain can set or shadow it, which
   * closes cookie tossing); otherwise `csrf`, so plain-HTTP development works.
   */
  secure?: boolean;
  /** Cookie name; default `__Host-csrf` when secure, `csrf` otherwise. */
  cookieName?: string;
  /**
   * SameSite of the token cookie; default `Lax`. `Strict` keeps the cookie off cross-site
   * navigations, so the first page after one would get a new token and break forms open in other tabs.
   */
  sameSite?: 'Strict' | 'Lax';
  /** Request header carrying the token; default `x-csrf-token`. */
  headerName?: string;
  /**
   * Body field carrying the token for HTML forms when the header is absent; default `_csrf`; false
   * for none. Checked in beforeHandle, after the body is validated: declare the field in the body
   * schema (or use a schema that keeps unknown keys).
   */
  formField?: string | false;
  /**
   * Origins allowed to send state-changing requests from another site (`https://admin.example`),
   * e.g. a sibling subdomain; default none. They still need the token.
   */
  trustedOrigins?: readonly string[];
}

/** `csrf` options after validation. */
export interface ResolvedCsrfOptions {
  readonly cookieName: string;
  readonly headerName: string;
  readonly formField: string | undefined;
  readonly trustedOrigins: ReadonlySet<string>;
  readonly cookie: Readonly<CookieAttributes>;
}

/** Methods that must not change state (RFC 9110 §9.2.1) and so need no token. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A token is 32 random bytes as base64url: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_LENGTH = 43;

function isTokenShape(value: string): boolean {
  return isBase64UrlOfLength(value, TOKEN_LENGTH);
}

function fail(option: string, problem: string): never {
  throw new TypeError(`csrf option "${option}" ${problem}`);
}

/** Validates `csrf` options and fills defaults; throws a TypeError naming the option. */
export function resolveCsrfOptions(options: CsrfOptions = {}): ResolvedCsrfOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('csrf options must be an object');
  const secure = options.secure ?? isProductionEnv();
  if (typeof secure !== 'boolean') fail('secure', 'must be a boolean');
  const cookieName = options.cookieName ?? (secure ? '__Host-csrf' : 'csrf');
  if (typeof cookieName !== 'string' || !isHttpToken(cookieName))
    fail('cookieName', 'must be a cookie name (a token)');
  const sameSite = options.sameSite ?? 'Lax';
  if (sameSite !== 'Strict' && sameSite !== 'Lax') fail('sameSite', 'must be "Strict" or "Lax"');
  const headerName = options.headerName ?? 'x-csrf-token';
  if (typeof headerName !== 'string' || !isHttpToken(headerName))
    fail('headerName', 'must be a header name (a token)');
  const formField = options.formField ?? '_csrf';
  if (formField !== false && (typeof formField !== 'string' || formField === '')) {
    fail('formField', 'must be a field name or false');
  }
  const trusted = new Set<string>();
  for (const origin of options.trustedOrigins ?? []) {
    const serialised = typeof origin === 'string' ? serialiseOrigin(origin) : undefined;
    if (serialised === undefined || serialised === 'null') {
      fail('trustedOrigins', `has ${JSON.stringify(origin)}, which is not an origin (scheme://host[:port])`);
    }
    trusted.add(serialised);
  }
  // Scripts must read a double-submit cookie to copy it into the header, so it is not HttpOnly;
  // it authorises nothing on its own.
  const cookie: CookieAttributes = { secure, httpOnly: false, sameSite, path: '/' };
  try {
    assertCookieAttributes({ scope: 'csrf', name: cookieName, attributes: cookie, isProduction: secure });
  } catch (error) {
    fail('cookieName', (error as Error).message);
  }
  return Object.freeze({
    cookieName,
    headerName: headerName.toLowerCase(),
    formField: formField === false ? undefined : formField,
    trustedOrigins: trusted,
    cookie: Object.freeze(cookie),
  });
}

/** The host (`host[:port]`) of a serialised origin or URL, for comparing against the request's own. */
function hostOf(origin: string): string {
  return origin.slice(origin.indexOf('//') + 2);
}

/**
 * Layer 1: refuses a state-changing request another site made the browser send. The comparison
 * with this host ignores the scheme, since TLS is often terminated by a proxy in front of the app.
 */
function assertSameSite(policy: ResolvedCsrfOptions, request: Request): void {
  const origin = request.headers.get('origin');
  const serialised = origin === null ? undefined : serialiseOrigin(origin);
  if (serialised !== undefined && policy.trustedOrigins.has(serialised)) return;
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) {
    // `none` is a user action (typed URL, bookmark); `same-site` includes sibling subdomains,
    // which may be less trusted than this origin, so it is refused unless trusted.
    if (site === 'same-origin' || site === 'none') return;
    const shown = site === 'same-site' || site === 'cross-site' ? site : 'not same-origin';
    throw new ForbiddenError(`Cross-site request refused: Sec-Fetch-Site is ${shown}`);
  }
  if (origin === null) return;
  const own = serialiseOrigin(new URL(request.url).origin);
  if (
    serialised === undefined ||
    serialised === 'null' ||
    own === undefined ||
    hostOf(serialised) !== hostOf(own)
  ) {
    throw new ForbiddenError('Cross-site request refused: the Origin header does not name this site');
  }
}

function assertTokensMatch(cookieToken: string | undefined, submitted: unknown, where: string): void {
  if (cookieToken === undefined) {
    throw new ForbiddenError('CSRF token cookie missing: load a page (a GET) first to receive one');
  }
  if (typeof submitted !== 'string' || submitted === '')
    throw new ForbiddenError(`CSRF token missing from the ${where}`);
  if (!timingSafeEqual(cookieToken, submitted))
    throw new ForbiddenError('CSRF token does not match its cookie');
}

/**
 * Hooks protecting state-changing requests against CSRF. The token is `ctx.state.csrfToken` for
 * handlers that render forms or pages; send it back in the `x-csrf-token` header (or `_csrf`
 * form field). A refusal is a 403 problem whose detail says which check failed. Declares the
 * `csrfProtection` hook trait, which the App's session boot guard looks for.
 */
export function csrf(options?: CsrfOptions): Hooks {
  const policy = resolveCsrfOptions(options);
  const issued = new WeakMap<object, string>();
  const awaitingBody = new WeakMap<object, string | undefined>();

  const cookieToken = (request: Request): string | undefined => {
    const value = readRequestCookie(request.headers.get('cookie'), policy.cookieName);
    // Anything but our own shape is ignored (and replaced on the next safe request).
    return value !== null && isTokenShape(value) ? value : undefined;
  };

  const hooks: Hooks = {
    preBody(ctx) {
      const request = ctx.request;
      const existing = cookieToken(request);
      if (SAFE_METHODS.has(request.method)) {
        const token = existing ?? randomId(TOKEN_BYTES);
        if (existing === undefined) issued.set(ctx, token);
        ctx.state.csrfToken = token;
        return;
      }
      assertSameSite(policy, request);
      const header = request.headers.get(policy.headerName);
      if (header === null && policy.formField !== undefined) {
        // No header: the token may be a form field, which is only known after the body is read.
        awaitingBody.set(ctx, existing);
        if (existing !== undefined) ctx.state.csrfToken = existing;
        return;
      }
      assertTokensMatch(existing, header, `${policy.headerName} header`);
      ctx.state.csrfToken = existing;
    },
    beforeHandle(ctx) {
      if (!awaitingBody.has(ctx)) return;
      const existing = awaitingBody.get(ctx);
      awaitingBody.delete(ctx);
      const body = ctx.body;
      const field =
        typeof body === 'object' && body !== null
          ? (body as Record<string, unknown>)[policy.formField as string]
          : undefined;
      assertTokensMatch(existing, field, `${policy.headerName} header or ${policy.formField} form field`);
    },
    onSend(response, ctx) {
      const token = ctx === undefined ? undefined : issued.get(ctx);
      if (token === undefined) return;
      return setResponseHeaders(response, [
        ['set-cookie', serializeCookie(policy.cookieName, token, policy.cookie)],
      ]);
    },
  };
  return withHookTraits(hooks, {
    csrfProtection: true,
    answers: [
      {
        status: 403,
        description:
          'Cross-site request refused: Sec-Fetch-Site, Origin or the CSRF token does not check out',
      },
    ],
    trustsOrigin: (origin) => policy.trustedOrigins.has(origin),
  });
}

/** The CSRF token of a request, as `csrf()` exposed it (`ctx.state.csrfToken`). */
export function csrfTokenOf(ctx: Pick<AnyContext, 'state'>): string | undefined {
  const token = ctx.state.csrfToken;
  return typeof token === 'string' ? token : undefined;
}

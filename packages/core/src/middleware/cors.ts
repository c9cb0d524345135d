/**
 * Cross-origin resource sharing (Fetch standard §3.2, "CORS protocol"). Preflights are answered in
 * onRequest, before any other hook and before routing (a preflight never reaches a route); every
 * other response gets the policy's headers in onSend, error responses (a 401 from an auth hook, a
 * 429, a 500) included, so a browser can read why a request failed.
 */
import { ForbiddenError } from '../errors/index.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { type Hooks, withHookTraits } from '../types/index.ts';
import { appendVary, setResponseHeaders, splitList } from '../pipeline/response-headers.ts';

/** Which origins may read responses: one origin, a list, `*` (any), or a predicate. */
export type CorsOrigin = string | readonly string[] | ((origin: string) => boolean);

/** Options of `cors()`. */
export interface CorsOptions {
  /**
   * The origins allowed, as serialised origins (`https://app.example`, compared after lower-casing
   * and dropping a default port), `*` for any origin, or a predicate given the serialised origin.
   * The opaque origin `null` (sandboxed frames, `file:` pages, some redirects) is allowed only when
   * a string or list names it; a predicate never sees it. Required.
   */
  origin: CorsOrigin;
  /**
   * Methods a preflight may ask for (case-sensitive, Fetch §3.2.3); default GET, HEAD, POST,
   * PUT, PATCH, DELETE.
   */
  methods?: readonly string[];
  /**
   * Request headers a preflight may ask for (case-insensitive); default `content-type` and
   * `authorization`. `*` admits whatever the preflight lists (each name still checked as a token),
   * answering with those names rather than the `*` wildcard, which would not cover `authorization`
   * and means a literal name when credentials are allowed (Fetch §3.2.3).
   */
  allowedHeaders?: readonly string[] | '*';
  /** Response headers a script may read beyond the CORS-safelisted ones; default none. */
  exposedHeaders?: readonly string[];
  /**
   * Allow cookies and HTTP authentication on cross-origin requests; default false. The allowed
   * origin is then echoed (never `*`), and `origin: '*'` or a predicate admitting any origin throws.
   */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds; default 600 (Chromium caps it at 7200). */
  maxAgeSeconds?: number;
}

/** `cors` options after validation. */
export interface ResolvedCorsOptions {
  /** Answers the serialised origin allowed for a request's Origin header value, or undefined. */
  readonly allowOrigin: (origin: string) => string | undefined;
  /** `*` was configured: any origin, answered with the `*` wildcard. */
  readonly wildcard: boolean;
  /** The policy admits any origin (`*`, or a predicate that admits a probe origin). */
  readonly anyOrigin: boolean;
  readonly methods: readonly string[];
  /** Lower-case names, or `*` to admit what the preflight asks for. */
  readonly allowedHeaders: ReadonlySet<string> | '*';
  readonly exposedHeaders: readonly string[];
  readonly credentials: boolean;
  readonly maxAgeSeconds: number;
}

export const DEFAULT_CORS_METHODS: readonly string[] = Object.freeze([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);
export const DEFAULT_CORS_ALLOWED_HEADERS: readonly string[] = Object.freeze([
  'content-type',
  'authorization',
]);
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

/** An origin under the reserved `.invalid` TLD (RFC 2606 §2): a predicate admitting it admits anything. */
const PROBE_ORIGIN = 'https://cors-probe.charter.invalid';

/**
 * The serialised form of an origin (HTML "ASCII serialization of an origin"): `scheme://host[:port]`,
 * lower case, default port dropped. Undefined for anything that is not exactly an origin: a path,
 * query, fragment or credentials make it a URL, not an origin.
 */
export function serialiseOrigin(value: string): string | undefined {
  if (value === 'null') return 'null';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  // A lone trailing slash is tolerated (configuration often has one); an Origin header never does.
  if (url.host === '' || (url.pathname !== '' && url.pathname !== '/')) return undefined;
  return `${url.protocol}//${url.host}`.toLowerCase();
}

function fail(option: string, problem: string): never {
  throw new TypeError(`cors option "${option}" ${problem}`);
}

function tokenList(option: string, value: unknown, lower: boolean): string[] {
  if (!Array.isArray(value)) fail(option, 'must be an array of header names');
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || !isHttpToken(item))
      fail(option, `has an invalid name ${JSON.stringify(item)}`);
    const name = lower ? item.toLowerCase() : item;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

function resolveOrigin(
  origin: unknown,
  credentials: boolean,
): Pick<ResolvedCorsOptions, 'allowOrigin' | 'wildcard' | 'anyOrigin'> {
  if (origin === '*') {
    // Fetch §3.2.5: `*` with credentials is refused by browsers; reflecting any origin instead
    // would hand every site the user's cookies.
    if (credentials) fail('origin', 'cannot be "*" when credentials is true; list the origins allowed');
    return { allowOrigin: () => '*', wildcard: true, anyOrigin: true };
  }
  if (typeof origin === 'function') {
    const predicate = origin as (origin: string) => boolean;
    let admitsProbe = false;
    try {
      admitsProbe = predicate(PROBE_ORIGIN) === true;
    } catch {
      admitsProbe = false;
    }
    if (admitsProbe && credentials) {
      fail(
        'origin',
        'is a function that admits any origin, which with credentials would let every site act as the user',
      );
    }
    const allowOrigin = (value: string): string | undefined => {
      const serialised = serialiseOrigin(value);
      if (serialised === undefined || serialised === 'null') return undefined;
      return predicate(serialised) === true ? serialised : undefined;
    };
    return { allowOrigin, wildcard: false, anyOrigin: admitsProbe };
  }
  const list = typeof origin === 'string' ? [origin] : origin;
  if (!Array.isArray(list) || list.length === 0) {
    fail('origin', 'must be an origin, a non-empty list of origins, "*" or a function');
  }
  const allowed = new Set<string>();
  for (const item of list) {
    if (item === '*') fail('origin', 'lists "*"; use origin: "*" on its own');
    if (typeof item === 'string' && item.includes('*')) {
      fail('origin', `has the pattern ${JSON.stringify(item)}; patterns are not supported, use a predicate`);
    }
    const serialised = typeof item === 'string' ? serialiseOrigin(item) : undefined;
    if (serialised === undefined) {
      fail('origin', `has ${JSON.stringify(item)}, which is not an origin (scheme://host[:port], no path)`);
    }
    allowed.add(serialised);
  }
  const allowOrigin = (value: string): string | undefined => {
    const serialised = serialiseOrigin(value);
    return serialised !== undefined && allowed.has(serialised) ? serialised : undefined;
  };
  return { allowOrigin, wildcard: false, anyOrigin: false };
}

/** Validates `cors` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveCorsOptions(options: CorsOptions): ResolvedCorsOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('cors options must be an object');
  const credentials = options.credentials ?? false;
  if (typeof credentials !== 'boolean') fail('credentials', 'must be a boolean');
  const methods = tokenList('methods', options.methods ?? DEFAULT_CORS_METHODS, false);
  if (methods.length === 0) fail('methods', 'must list at least one method');
  const allowedHeaders =
    options.allowedHeaders === '*'
      ? '*'
      : new Set(tokenList('allowedHeaders', options.allowedHeaders ?? DEFAULT_CORS_ALLOWED_HEADERS, true));
  const exposedHeaders = tokenList('exposedHeaders', options.exposedHeaders ?? [], true);
  const maxAgeSeconds = options.maxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 0) {
    throw new RangeError(
      `cors option "maxAgeSeconds" must be a non-negative integer, got ${String(maxAgeSeconds)}`,
    );
  }
  return Object.freeze({
    ...resolveOrigin(options.origin, credentials),
    methods: Object.freeze(methods),
    allowedHeaders,
    exposedHeaders: Object.freeze(exposedHeaders),
    credentials,
    maxAgeSeconds,
  });
}

/** A value fit to quote in a problem detail: a short token, or nothing. */
function quoted(value: string): string {
  return isHttpToken(value) && value.length <= 64 ? ` "${value}"` : '';
}

/** Fetch §3.2.2: a CORS-preflight request is an OPTIONS with Origin and Access-Control-Request-Method. */
function isPreflight(request: Request): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.has('origin') &&
    request.headers.has('access-control-request-method')
  );
}

/**
 * Answers a preflight: 204 with the allow headers, or a 403 problem when the origin, the method or
 * a header is not allowed. A refusal could also be a 204 without allow headers (the browser fails
 * either way, Fetch §4.8 needs an ok status and the headers); the 403 says why to whoever debugs it.
 */
function answerPreflight(policy: ResolvedCorsOptions, request: Request): Response {
  const origin = request.headers.get('origin') as string;
  const allowed = policy.allowOrigin(origin);
  if (allowed === undefined) throw new ForbiddenError('The request origin is not allowed by the CORS policy');
  const method = request.headers.get('access-control-request-method') as string;
  if (!policy.methods.includes(method)) {
    throw new ForbiddenError(`The method${quoted(method)} is not allowed by the CORS policy`);
  }
  const requested = splitList(request.headers.get('access-control-request-headers')).map((h) =>
    h.toLowerCase(),
  );
  for (const name of requested) {
    const ok = isHttpToken(name) && (policy.allowedHeaders === '*' || policy.allowedHeaders.has(name));
    if (!ok) throw new ForbiddenError(`The request header${quoted(name)} is not allowed by the CORS policy`);
  }
  const headers = new Headers({
    'access-control-allow-origin': allowed,
    'access-control-allow-methods': policy.methods.join(', '),
    'access-control-max-age': String(policy.maxAgeSeconds),
    // The answer depends on all three request headers; a shared cache must key on them.
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  });
  const allowHeaders = policy.allowedHeaders === '*' ? requested : [...policy.allowedHeaders];
  if (allowHeaders.length > 0) headers.set('access-control-allow-headers', allowHeaders.join(', '));
  if (policy.credentials) headers.set('access-control-allow-credentials', 'true');
  return new Response(null, { status: 204, headers });
}

/**
 * Adds the CORS response headers for a request from `origin`: null when it had none, or when it is
 * unknown (an unmatched 404/405 has no context), where only a `*` policy can answer.
 */
function decorate(policy: ResolvedCorsOptions, response: Response, origin: string | null): Response {
  // With `*` the answer is the same for every origin; otherwise caches must key on Origin
  // (Fetch §3.2.5 "CORS protocol and HTTP caches"), including for responses to no Origin at all.
  const out = policy.wildcard ? response : appendVary(response, 'Origin');
  const allowed = policy.wildcard ? '*' : origin === null ? undefined : policy.allowOrigin(origin);
  if (allowed === undefined) return out;
  const entries: [string, string][] = [['access-control-allow-origin', allowed]];
  if (policy.credentials) entries.push(['access-control-allow-credentials', 'true']);
  if (policy.exposedHeaders.length > 0) {
    entries.push(['access-control-expose-headers', policy.exposedHeaders.join(', ')]);
  }
  return setResponseHeaders(out, entries, { overwrite: false });
}

/**
 * Hooks applying a CORS policy. Register them in `new App({ hooks })` or with `app.use`, so the
 * preflight is answered before routing (a path has no OPTIONS route) and before any other hook.
 * Declares the `cors` hook trait, from which the App's cross-origin guard learns the allowed origins.
 */
export function cors(options: CorsOptions): Hooks {
  const policy = resolveCorsOptions(options);
  const hooks: Hooks = {
    onRequest(request) {
      if (isPreflight(request)) return answerPreflight(policy, request);
    },
    onSend(response, _ctx, request) {
      // A preflight was answered (allowed or refused) by onRequest with exactly its own headers.
      if (isPreflight(request)) return;
      return decorate(policy, response, request.headers.get('origin'));
    },
  };
  return withHookTraits(hooks, {
    cors: {
      allowsOrigin: (origin) => policy.allowOrigin(origin) !== undefined,
      anyOrigin: policy.anyOrigin,
      credentials: policy.credentials,
    },
  });
}

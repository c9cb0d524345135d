/**
 * Better Auth mounted in a Charter app (framework.md, "Mounting an external auth library"): Better
 * Auth owns `/api/auth/*` (sign-up, sign-in, sign-out, password reset, OAuth callbacks) and its
 * users live in SQLite through `bun:sqlite`; Charter owns the application routes, which read the
 * session in a `preBody` guard. Run it with
 *
 *   bun examples/better-auth.ts
 *
 * Without BETTER_AUTH_SECRET (e.g. `$(openssl rand -base64 32)`) it makes a random one for this run
 * and says so: sessions then end with the process. PORT, HOST, BETTER_AUTH_URL (the public origin,
 * default http://HOST:PORT), AUTH_DB (the SQLite file, default in memory) and TRUSTED_PROXY_HOPS (see
 * "Behind a proxy" below) are read too.
 *
 * Behind a proxy. Set the App's `behindProxy` to what sits in front of the app, e.g. `{ hops: 1 }`
 * for one TLS-terminating load balancer, or `{ cidrs: ['10.0.0.0/24'] }`. Charter then takes the
 * client address from `X-Forwarded-For` / `Forwarded` exactly that far and no further, and in
 * production refuses forwarded headers while no posture is set. The rate limit on the sensitive auth
 * routes keys on that address, and so does Better Auth: the mount hands it the address Charter
 * resolved (in `x-charter-client-ip`, stripped from the incoming request first) instead of letting it
 * read `X-Forwarded-For`, which any client can write when no proxy rewrites it. `baseURL` is fixed, so
 * Better Auth never derives its own origin from `X-Forwarded-Host`.
 */
import { Database } from 'bun:sqlite';
import { type } from 'arktype';
import { betterAuth, type Session, type User } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { serve } from 'charter/bun';
import {
  App,
  type AppOptions,
  assertStrongSecret,
  clientIp,
  cors,
  csrf,
  except,
  type Hooks,
  InternalError,
  type ProxyPosture,
  rateLimit,
  type Scope,
  unauthorized,
  withHookTraits,
} from 'charter';

/** Where Better Auth is mounted (its default `basePath`). */
export const AUTH_BASE_PATH = '/api/auth';

/** The header through which the mount tells Better Auth the client address Charter resolved. */
export const CLIENT_IP_HEADER = 'x-charter-client-ip';

/**
 * First path segments (after the base path) that a rate limit covers: credential checks, account
 * creation, password reset and OAuth callbacks, the routes worth brute-forcing or flooding.
 */
export const SENSITIVE_AUTH_SEGMENTS: readonly string[] = [
  'sign-in',
  'sign-up',
  'request-password-reset',
  'reset-password',
  'callback',
  'oauth2',
];

/** A user and the session that proved who they are, as Better Auth's `getSession` returns them. */
export interface BetterAuthSession {
  session: Session;
  user: User;
}

/** The part of a Better Auth instance the session guard needs. */
export interface SessionReader {
  api: {
    getSession(context: {
      headers: Headers;
      returnHeaders: true;
    }): Promise<{ headers: Headers; response: BetterAuthSession | null }>;
  };
}

/** Options of `mountAuthHandler()`. */
export interface MountAuthHandlerOptions {
  /** The library's handler, Request in, Response out (`auth.handler` for Better Auth). Required. */
  handler: (request: Request) => Response | Promise<Response>;
  /** Where the library expects to be mounted; default `/api/auth`. */
  basePath?: string;
  /** The limit on sign-in, sign-up, reset and callback requests per client address; default 10 a minute. */
  rateLimit?: { windowMs: number; max: number };
  /** Header carrying the client address Charter resolved to the library; default `x-charter-client-ip`. */
  clientIpHeader?: string;
}

/**
 * True when `pathname` (below `basePath`) is one of the sensitive auth routes. The path is compared
 * decoded and lower-cased, so `/sign-in/%65mail` or `/SIGN-IN/email` cannot step around the limit
 * whatever the library's own router accepts; a path that does not decode is treated as sensitive.
 */
export function isSensitiveAuthPath(pathname: string, basePath = AUTH_BASE_PATH): boolean {
  let path: string;
  try {
    path = decodeURIComponent(pathname).toLowerCase();
  } catch {
    return true;
  }
  const prefix = `${basePath.toLowerCase()}/`;
  if (!path.startsWith(prefix)) return false;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  return SENSITIVE_AUTH_SEGMENTS.includes(slash === -1 ? rest : rest.slice(0, slash));
}

/**
 * The request as the library gets it: the same method, URL, headers and (unread) body, plus the
 * client address Charter resolved under the App's proxy posture. A copy of the header sent by the
 * client is removed first, so nobody can choose the address the library records.
 */
function forLibrary(request: Request, header: string): Request {
  const headers = new Headers(request.headers);
  headers.delete(header);
  const ip = clientIp(request);
  if (ip !== undefined) headers.set(header, ip);
  return new Request(request, { headers });
}

/**
 * Mounts an external auth handler on GET and POST `<basePath>/*path`. A `preBody` hook hands the
 * request to the library before Charter reads the body and answers with the library's raw Response:
 * status, `Location`, and every `Set-Cookie` field as the library wrote them. A rate limit covers the
 * sensitive routes (`isSensitiveAuthPath`).
 */
export function mountAuthHandler(scope: Scope, options: MountAuthHandlerOptions): void {
  const basePath = options.basePath ?? AUTH_BASE_PATH;
  const header = (options.clientIpHeader ?? CLIENT_IP_HEADER).toLowerCase();
  const limit = options.rateLimit ?? { windowMs: 60_000, max: 10 };
  const handler = options.handler;
  const hooks: Hooks[] = [
    // One budget per client address across all the sensitive routes, so switching between them
    // does not reset the count. Checked on the route's own onRequest, before anything else runs.
    except(
      (request) => !isSensitiveAuthPath(new URL(request.url).pathname, basePath),
      rateLimit({ windowMs: limit.windowMs, max: limit.max, name: 'auth' }),
    ),
    { preBody: (ctx) => handler(forLibrary(ctx.request, header)) },
  ];
  const unreachable = (): never => {
    throw new InternalError('The auth handler hook answers every request of this route');
  };
  scope.get(
    `${basePath}/*path`,
    {
      operationId: 'authGet',
      summary: 'Auth library (GET): session, callbacks, verification and reset links',
      tags: ['auth'],
      hooks,
      acknowledgeNoResponseBodySchema: true,
      responses: {
        200: { description: 'The library answered' },
        302: { description: 'Redirect to a callback URL' },
        400: { description: 'Invalid request' },
        401: { description: 'Not signed in' },
      },
    },
    unreachable,
  );
  scope.post(
    `${basePath}/*path`,
    {
      operationId: 'authPost',
      summary: 'Auth library (POST): sign-up, sign-in, sign-out, password reset',
      tags: ['auth'],
      hooks,
      acknowledgeNoResponseBodySchema: true,
      responses: {
        200: { description: 'The library answered' },
        201: { description: 'Created' },
        204: { description: 'Done, nothing to return' },
        400: { description: 'Invalid request' },
        401: { description: 'Wrong credentials or not signed in' },
      },
    },
    unreachable,
  );
}

/**
 * A `preBody` guard for application routes: reads the Better Auth session from the request headers
 * (the cookie) only, so an unauthenticated upload is refused before its body is read. Throws 401
 * without a valid session; otherwise sets `ctx.state.user` (`sub` is the user id) and
 * `ctx.state.auth` (`scheme: 'session'`, the session as credentials). Cookies Better Auth sets while
 * reading the session (a renewed one, or the deletion of a revoked one) are passed on to the response.
 */
export function requireBetterAuthSession(auth: SessionReader, options: { realm?: string } = {}): Hooks {
  const realm = options.realm ?? 'app';
  return withHookTraits(
    {
      async preBody(ctx) {
        const { headers, response: found } = await auth.api.getSession({
          headers: ctx.request.headers,
          returnHeaders: true,
        });
        // A renewed cookie with a session, or the deletion of a stale one without: either way the
        // browser should get it, and headers set here reach the 401 problem too.
        for (const cookie of headers.getSetCookie()) ctx.set.headers.append('set-cookie', cookie);
        if (found === null) {
          // There is no registered scheme for cookie sessions; `Cookie` with `form-action` follows
          // draft-broyer-http-cookie-auth, telling a client where to sign in (RFC 9110 §11.6.1
          // requires a challenge on every 401).
          throw unauthorized({
            scheme: 'Cookie',
            realm,
            params: { 'form-action': `${AUTH_BASE_PATH}/sign-in/email` },
            description: 'Sign in first: this route needs a session cookie.',
          });
        }
        ctx.state.user = { sub: found.user.id, scopes: [], claims: { ...found.user } };
        ctx.state.auth = { scheme: 'session', credentials: found };
      },
    },
    { authenticates: true, usesSession: true },
  );
}

/** The Better Auth session a `requireBetterAuthSession` guard stored; throws when none ran. */
export function betterAuthSessionOf(ctx: { state: { auth?: { credentials: unknown } } }): BetterAuthSession {
  const credentials = ctx.state.auth?.credentials as BetterAuthSession | undefined;
  if (credentials === undefined) throw new InternalError('No session guard ran before this handler');
  return credentials;
}

/** Options of `createBetterAuthApp()`. */
export interface BetterAuthAppOptions {
  /** Better Auth's secret (cookie signatures, tokens): at least 32 random bytes. Required. */
  secret: string;
  /** The origin browsers reach the app at (`https://app.example`); Better Auth's `baseURL`. Required. */
  baseURL: string;
  /** Users, sessions, accounts and verification tokens; default a new in-memory database. */
  database?: Database;
  /**
   * Other origins whose pages may call the app with cookies (`https://spa.example`); default none. The
   * same list feeds Better Auth's `trustedOrigins` (its Origin and callback-URL checks), a Charter
   * `cors()` policy (credentials) and `csrf({ trustedOrigins })`, so the three never disagree.
   */
  trustedOrigins?: readonly string[];
  /** The proxies in front of the app (see the file header); default unset. */
  behindProxy?: ProxyPosture;
  /** The limit on the sensitive auth routes per client address; default 10 a minute. */
  authRateLimit?: { windowMs: number; max: number };
  /**
   * Delivers a password-reset link (an email in a real app). Default: outside production the link
   * is logged; in production password reset is off until a sender is given.
   */
  sendResetPassword?: (email: string, url: string) => void | Promise<void>;
  /** The App's logger option; Better Auth logs through the same logger. Default the App's default. */
  logger?: AppOptions['logger'];
  /** Production mode (HSTS, strict boot guards); default `NODE_ENV === 'production'`. */
  production?: boolean;
}

/** The Better Auth instance `createBetterAuthApp` builds. */
export type ExampleAuth = Awaited<ReturnType<typeof createAuth>>;

async function createAuth(app: App, options: BetterAuthAppOptions, database: Database) {
  const sender =
    options.sendResetPassword ??
    (app.options.production
      ? undefined
      : (email: string, url: string) =>
          app.logger.info('Password reset link (development only)', { email, url }));
  const config = {
    baseURL: options.baseURL,
    basePath: AUTH_BASE_PATH,
    secret: options.secret,
    database,
    trustedOrigins: [...(options.trustedOrigins ?? [])],
    emailAndPassword: {
      enabled: true,
      ...(sender === undefined
        ? {}
        : {
            sendResetPassword: async ({ user, url }: { user: User; url: string }) => sender(user.email, url),
          }),
    },
    // Charter's rateLimit covers the sensitive routes with the App's proxy posture.
    rateLimit: { enabled: false },
    // Better Auth still answers its own errors (401, 403, 422...) itself; anything else it cannot
    // handle (a body over Charter's limit, a database failure) is thrown to Charter, which answers
    // with its problem document (413 for the body) and logs it, instead of a bare 500 on the console.
    onAPIError: { throw: true },
    advanced: {
      // Better Auth turns its Origin and callback-URL checks off when NODE_ENV is `test`: keep them on.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      log: (level: 'debug' | 'info' | 'success' | 'warn' | 'error', message: string, ...args: unknown[]) => {
        const fields = args.length === 0 ? undefined : { library: 'better-auth', args };
        if (level === 'error' || level === 'warn' || level === 'debug') app.logger[level](message, fields);
        else app.logger.info(message, fields);
      },
    },
  };
  // Better Auth's own migration planner creates (or completes) its tables in the database.
  const { runMigrations } = await getMigrations(config);
  await runMigrations();
  return betterAuth(config);
}

const Me = type({ id: 'string', email: 'string', name: 'string' });
const Note = type({ id: 'number.integer', text: 'string' });
const NewNote = type({ text: '0 < string <= 500' });

/**
 * The example app: Better Auth on `/api/auth/*`, then `GET /me`, `GET /notes` and `POST /notes` for
 * signed-in users. `POST /notes` also needs Charter's CSRF token (`x-csrf-token`, echoing the
 * `csrf` cookie a GET hands out): the session is a cookie, so the boot guard asks for it.
 */
export async function createBetterAuthApp(
  options: BetterAuthAppOptions,
): Promise<{ app: App; auth: ExampleAuth; database: Database }> {
  assertStrongSecret(options.secret, 'BETTER_AUTH_SECRET', { production: true });
  const trustedOrigins = options.trustedOrigins ?? [];
  const app = new App({
    title: 'Better Auth example',
    version: '1.0.0',
    behindProxy: options.behindProxy,
    logger: options.logger,
    production: options.production,
  });
  const database = options.database ?? new Database(':memory:');
  const auth = await createAuth(app, options, database);

  // Pages on the trusted origins may call every route with cookies; the cross-origin guard admits them.
  if (trustedOrigins.length > 0) app.use(cors({ origin: [...trustedOrigins], credentials: true }));

  mountAuthHandler(app, { handler: auth.handler, rateLimit: options.authRateLimit });

  const signedIn = [
    withHookTraits(requireBetterAuthSession(auth), {
      secrets: [{ where: 'BETTER_AUTH_SECRET', value: options.secret }],
    }),
    csrf({ trustedOrigins: [...trustedOrigins] }),
  ];
  const notes = new Map<string, { id: number; text: string }[]>();
  let nextId = 1;

  app.get('/me', { operationId: 'me', hooks: signedIn, responses: { 200: { body: Me }, 401: {} } }, (ctx) => {
    const { user } = betterAuthSessionOf(ctx);
    return { status: 200, body: { id: user.id, email: user.email, name: user.name } };
  });

  app.get(
    '/notes',
    { operationId: 'listNotes', hooks: signedIn, responses: { 200: { body: Note.array() }, 401: {} } },
    (ctx) => ({ status: 200, body: notes.get(betterAuthSessionOf(ctx).user.id) ?? [] }),
  );

  app.post(
    '/notes',
    {
      operationId: 'createNote',
      hooks: signedIn,
      request: { body: NewNote },
      responses: { 201: { body: Note }, 401: {}, 403: {} },
    },
    (ctx) => {
      const owner = betterAuthSessionOf(ctx).user.id;
      const note = { id: nextId++, text: ctx.body.text };
      notes.set(owner, [...(notes.get(owner) ?? []), note]);
      return { status: 201, body: note };
    },
  );

  app.healthcheck();
  return { app, auth, database };
}

if (import.meta.main) {
  const port = Number(process.env.PORT ?? 3000);
  const hostname = process.env.HOST ?? '127.0.0.1';
  const hops = process.env.TRUSTED_PROXY_HOPS;
  let secret = process.env.BETTER_AUTH_SECRET;
  if (secret === undefined && process.env.NODE_ENV !== 'production') {
    // Development only: a fresh secret per run. assertStrongSecret still refuses a weak one you set.
    secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    console.log('BETTER_AUTH_SECRET is not set: using a random secret for this run.');
  }
  const { app, database } = await createBetterAuthApp({
    // assertStrongSecret refuses a missing, short or placeholder secret before anything starts.
    secret: secret as string,
    baseURL: process.env.BETTER_AUTH_URL ?? `http://${hostname}:${port}`,
    database: new Database(process.env.AUTH_DB ?? ':memory:', { create: true }),
    behindProxy: hops === undefined ? undefined : { hops: Number(hops) },
  });
  app.onClose(() => database.close());
  const server = await serve(app, { port, hostname });
  const url = server.url;
  console.log(`Better Auth example listening on ${url}
Try:
  curl -i ${url}/me            # 401: no session yet
  curl -c jar -H 'content-type: application/json' ${url}${AUTH_BASE_PATH}/sign-up/email \\
    -d '{"email":"ada@example.com","password":"correct horse battery","name":"Ada"}'
  curl -b jar ${url}/me        # 200: the user Better Auth signed in`);
}

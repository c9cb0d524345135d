/**
 * The documentation site as one Charter App: the pages rendered from `content/`, their Markdown
 * forms and `/llms.txt`, the versioned JSON index, the discovery documents, OAuth 2.0 tokens, and
 * the docs tool server at `/mcp`. Every module returns plain route definitions; this file decides,
 * per route and once as it registers it, which of the site's cross-cutting rules apply (site.md
 * "Endpoints"): the shared rate limit, the optional bearer token, the `API-Version` echo. The pages
 * are registered at start-up, the Markdown surfaces and the machine routes with the first request
 * that may need them.
 */
// The core's App: the site serves its own OpenAPI document (`discovery/openapi.ts`) and its own
// `/docs` pages, so `@charter/app`'s `openapi` and `docs` options, and the generator and docs UI its
// App imports, would only add to what the executable loads at start (issue 18, item 6).
import {
  type AnyRouteDefinition,
  App,
  cors,
  type Hooks,
  httpBearerScheme,
  type Logger,
  type RateLimitStore,
  rateLimit,
  type ResponseHeaderSpec,
} from '@charter/core';
import { headerSchemas, lazyHeader } from './api/header-specs.ts';
import { API_MAJOR, API_VERSION_HEADER } from './api/lifecycle.ts';
import type { MachineRoutesOptions } from './api/machine-routes.ts';
import { apiVersionEcho } from './api/version.ts';
import type { ContentSite } from './content/types.ts';
import { notFoundFallback } from './not-found.ts';
import { optionalBearer } from './oauth/bearer.ts';
import { createTokenService } from './oauth/tokens.ts';
import { deprecationHeaders } from './pages/docs-md.ts';
import { MARKDOWN_ROUTE_PATHS, markdownRoutes, pageRoutePaths, pageRoutes } from './pages/index.ts';
import { negotiatePage } from './pages/negotiate.ts';
import { requestLog } from './request-log.ts';

/** The site's release, as `info.version` of its OpenAPI document and `serverInfo.version`. */
export const SITE_VERSION = '1.0.0';

/** site.md "Limits": 120 requests per 60-second window per client, shared by every limited endpoint. */
export const RATE_LIMIT = { max: 120, windowMs: 60_000 } as const;

/** Options of `createSite`. */
export interface SiteOptions {
  /** The public origin (`SITE_ORIGIN`), e.g. `https://charter.dev`; no path, no trailing slash. */
  readonly origin: string;
  readonly content: ContentSite;
  /** The key that signs access tokens (see `resolveTokenKey`). */
  readonly tokenKey: Uint8Array;
  /** Production posture: redaction, boot guards. Default false. */
  readonly production?: boolean;
  readonly logger?: Logger | false;
  /** The rate-limit counters; default in memory (one process). Swap in a networked store for replicas. */
  readonly rateLimitStore?: RateLimitStore;
  /** Override the quota (tests); default `RATE_LIMIT`. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  /** Which proxies sit in front (the App option `behindProxy`); default `'none'`. */
  readonly behindProxy?: ConstructorParameters<typeof App>[0] extends infer O
    ? O extends { behindProxy?: infer B }
      ? B
      : never
    : never;
  /** The clock of token issuance and verification (tests). */
  readonly now?: () => number;
}

/** How the site's rules apply to one route. */
interface RoutePolicy {
  /** Counted against the shared quota (site.md lists 429 for it). */
  readonly limited: boolean;
  /**
   * Only its Markdown answers are counted (a page route: `.md` URLs, `Accept: text/markdown`);
   * its HTML answers, for people, are not (site.md lists no 429 for them).
   */
  readonly markdownOnly?: boolean;
  /** Part of the JSON/Markdown APIs: echoes `API-Version`. */
  readonly api: boolean;
  /** Accepts an optional bearer token for this protected resource (`mcp`, `api/v1`, `md`, or `''`: the origin). */
  readonly resource?: string;
}

/** site.md "Limits": the endpoints that document 429, keyed by route path. */
const POLICIES: Readonly<Record<string, RoutePolicy>> = {
  '/api/v1': { limited: true, api: true, resource: 'api/v1' },
  '/api': { limited: false, api: true },
  '/openapi.json': { limited: true, api: true, resource: '' },
  '/.well-known/api-catalog': { limited: false, api: true },
  '/.well-known/mcp/server-card.json': { limited: true, api: true },
  '/.well-known/oauth-authorization-server': { limited: false, api: true },
  '/.well-known/oauth-protected-resource': { limited: false, api: true },
  '/.well-known/oauth-protected-resource/*resource': { limited: true, api: true },
  '/oauth/token': { limited: true, api: true },
  '/oauth/authorize': { limited: true, api: true },
  '/oauth/introspect': { limited: true, api: true },
  '/mcp': { limited: true, api: true, resource: 'mcp' },
  '/llms.txt': { limited: true, api: true, resource: '' },
  '/md': { limited: true, api: true, resource: 'md' },
  '/md/*path': { limited: true, api: true, resource: 'md' },
  '/docs-md': { limited: true, api: true, resource: 'md' },
  '/docs-md/*path': { limited: true, api: true, resource: 'md' },
};

/**
 * The quota is for the machine surfaces (site.md "Limits"). HTML pages, the search page and assets
 * are not counted: readers behind one office NAT share an address. A page route's Markdown answers
 * (`.md`, `Accept: text/markdown`) are the Markdown surface under another URL, and are counted.
 */
function policyOf(route: AnyRouteDefinition): RoutePolicy {
  const known = POLICIES[route.path];
  if (known !== undefined) return known;
  if (route.path.startsWith('/assets/') || PEOPLE_PATHS.has(route.path))
    return { limited: false, api: false };
  // Pages answer their Markdown form too (`.md`, Accept): a token sent there is checked as on /md.
  return { limited: true, markdownOnly: true, api: false, resource: 'md' };
}

/** The home page's URL: its route is registered at start-up, the other pages' with their first request. */
const HOME_PATH = '/';

/**
 * The path of a request's URL as the client sent it (`scheme://authority/path?query`), before any
 * parsing resolves dot segments or escapes: only a path equal to a route's, character for character,
 * is taken for that route's.
 */
function requestPath(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return '';
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return url.slice(start, end);
}

/** The search page and the suggestions its box fetches: for people, not counted. */
const PEOPLE_PATHS: ReadonlySet<string> = new Set(['/search', '/search/suggestions.json']);

/**
 * Whether a page route will answer Markdown, as `page-routes.ts` decides it: from the route that
 * matched (a `.md` route, or a section page whose wildcard value ends in `.md`) or from Accept. The
 * wildcard value is the router's, after its normalisation, as the handler reads it: the URL's own
 * path would miss `/docs/jwt%2Emd`, which the handler answers in Markdown. Reading the match, not
 * the URL, also spares building `ctx.request` on every page view (issue 18, item 6).
 */
function answersMarkdown(ctx: PageHookContext, accept: string | null): boolean {
  if (ctx.route.path.endsWith('.md')) return true;
  const rest = (ctx.params as { readonly path?: unknown }).path;
  if (typeof rest === 'string' && rest.endsWith('.md')) return true;
  const choice = negotiatePage(accept);
  return choice.type === 'text/markdown' || !choice.acceptable;
}

type PageHookContext = Parameters<NonNullable<Hooks['preBody']>>[0];

/** The quota, applied only to the Markdown answers of a page route. */
function limitMarkdownAnswers(limit: Hooks): Hooks {
  return {
    preBody(ctx) {
      const accept = (ctx.headers as Readonly<Record<string, string | undefined>>).accept ?? null;
      if (answersMarkdown(ctx, accept)) return limit.preBody?.(ctx);
    },
  };
}

/**
 * One declaration per header description, shared by every route that lists it: the site declares
 * the same few headers on most of its routes' answers, and made anew each time they were a good part
 * of registering the start-up routes (issue 18, item 6). A declaration is never changed once made.
 */
const HEADER_SPECS = new Map<string, ResponseHeaderSpec>();
function sharedHeader(key: string, make: () => ResponseHeaderSpec): ResponseHeaderSpec {
  let spec = HEADER_SPECS.get(key);
  if (spec === undefined) {
    spec = make();
    HEADER_SPECS.set(key, spec);
  }
  return spec;
}

// The schemas of `header-schemas.ts`, which loads arktype: read only by the OpenAPI document.
const text = (description: string) =>
  sharedHeader(`text ${description}`, () => lazyHeader(description, () => headerSchemas().HeaderText));
const integer = (description: string) =>
  sharedHeader(`integer ${description}`, () => lazyHeader(description, () => headerSchemas().HeaderInteger));
const apiMajor = () =>
  sharedHeader('api major', () =>
    lazyHeader('The API major: always `1`', () => headerSchemas().ApiMajorHeader),
  );

/** Response headers a cross-origin script may read on the public documents. */
const EXPOSED_HEADERS = [
  API_VERSION_HEADER,
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Link',
  'Deprecation',
  'Sunset',
  'ETag',
] as const;

let RATE_LIMIT_HEADERS: Readonly<Record<string, ResponseHeaderSpec>> | undefined;
/** The quota's response headers: one record, copied into each answer that lists them. */
function rateLimitHeaders(): Readonly<Record<string, ResponseHeaderSpec>> {
  RATE_LIMIT_HEADERS ??= Object.freeze({
    RateLimit: text('Remaining quota: `"default";r=<remaining>;t=<seconds to reset>` (RFC 9651 list)'),
    'RateLimit-Policy': text('The quota: `"default";q=120;w=60`'),
    'RateLimit-Limit': integer('Requests allowed per window (integer)'),
    'RateLimit-Remaining': integer('Requests left in the window (integer)'),
    'RateLimit-Reset': integer('Seconds until the window resets (integer)'),
  });
  return RATE_LIMIT_HEADERS;
}

/** Whether a route reads the optional bearer token: the resource's reading routes (not OPTIONS, not GET /mcp). */
function takesToken(route: AnyRouteDefinition, policy: RoutePolicy): boolean {
  if (policy.resource === undefined || route.method === 'OPTIONS') return false;
  return route.path !== '/mcp' || route.method === 'POST';
}

/** The route with the site's rules for it: hooks, declared auth, and the responses and headers they add. */
function withPolicy(
  route: AnyRouteDefinition,
  policy: RoutePolicy,
  hooks: Readonly<SiteHooks>,
): AnyRouteDefinition {
  const before: Hooks[] = [];
  if (policy.api) before.push(hooks.apiVersion);
  if (policy.limited) before.push(policy.markdownOnly ? hooks.limitMarkdown : hooks.limit);
  if (takesToken(route, policy)) before.push(hooks.bearer(policy.resource ?? ''));
  if (route.path === '/docs-md' || route.path === '/docs-md/*path') before.push(hooks.deprecated);
  // Read-only documents are public: a script on any origin may read them (no credentials).
  if (policy.api && route.method === 'GET') before.push(hooks.readableAnywhere);
  const own = route.hooks === undefined ? [] : Array.isArray(route.hooks) ? route.hooks : [route.hooks];
  const responses: Record<number, Record<string, unknown>> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers: Record<string, unknown> = { ...(spec as { headers?: object }).headers };
    if (policy.api) {
      headers[API_VERSION_HEADER] = apiMajor();
    }
    if (policy.limited) Object.assign(headers, rateLimitHeaders());
    responses[Number(status)] = { ...(spec as object), headers };
  }
  if (policy.limited) {
    responses[429] = {
      description: 'Quota exhausted (`code`: `rate_limited`); retry after `Retry-After` seconds',
      headers: {
        ...rateLimitHeaders(),
        'Retry-After': integer('Seconds to wait (integer)'),
        ...(policy.api && { [API_VERSION_HEADER]: apiMajor() }),
      },
    };
  }
  const declared: Partial<AnyRouteDefinition> = {};
  if (takesToken(route, policy)) {
    declared.auth = { scheme: 'bearer', scopes: ['docs:read'], optional: true };
    responses[401] ??= {
      description:
        'A bearer token was sent but is invalid or expired (`WWW-Authenticate` names the metadata)',
      headers: { 'WWW-Authenticate': text('RFC 6750 / RFC 9728 challenge') },
    };
  }
  return {
    ...route,
    ...declared,
    hooks: [...before, ...own],
    responses: responses as AnyRouteDefinition['responses'],
    meta: { ...route.meta, ...(policy.limited && { 'rate-limit': 'default' }) },
  };
}

interface SiteHooks {
  readonly apiVersion: Hooks;
  /** Deprecation and Link on every answer of the deprecated surface, refusals included (site.md rule 4). */
  readonly deprecated: Hooks;
  readonly readableAnywhere: Hooks;
  readonly limit: Hooks;
  /** `limit` for the Markdown answers of the page routes only. */
  readonly limitMarkdown: Hooks;
  bearer(resource: string): Hooks;
}

/**
 * `API-Version` on answers under `/api` that no route produced (405 for another method, 404 for an
 * unknown path): the route hooks echo it on everything else.
 */
function apiPathVersion(): Hooks {
  return {
    onSend(response, ctx, request) {
      if (ctx !== undefined || response.headers.has(API_VERSION_HEADER)) return;
      const path = new URL(request.url).pathname;
      if (path === '/api' || path.startsWith('/api/')) response.headers.set(API_VERSION_HEADER, API_MAJOR);
    },
  };
}

/**
 * Route paths, matched as `preflights` and the start-up gate need: a path ending in `*name` matches
 * any path with its prefix, any other path only itself (a `:name` path matches nothing).
 */
class RoutePaths {
  readonly #exact = new Set<string>();
  readonly #prefixes: string[] = [];

  add(path: string): void {
    if (path.includes('*')) this.#prefixes.push(path.slice(0, path.indexOf('*')));
    else this.#exact.add(path);
  }

  has(path: string): boolean {
    return this.#exact.has(path) || this.#prefixes.some((prefix) => path.startsWith(prefix));
  }
}

/**
 * Answers CORS preflights (Fetch §3.2.2: OPTIONS with Origin and Access-Control-Request-Method) for
 * the public documents, before routing, where no route would. Other preflights fall through to the
 * router (405).
 */
function preflights(paths: RoutePaths, policy: Hooks): Hooks {
  return {
    onRequest(request) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return;
      if (paths.has(new URL(request.url).pathname)) return policy.onRequest?.(request);
    },
  };
}

/**
 * `problemCodes()` of `problems.ts`, loaded with the first problem document that leaves: it only
 * touches problem documents, and its module brings arktype, which the pages do not need.
 */
function problemCodesOnFirstProblem(): Hooks {
  let hooks: Hooks | undefined;
  return {
    onSend(response, ctx, request) {
      if (hooks === undefined) {
        // Wider than its own test (a `problem` media type), which it then applies exactly.
        if (!response.headers.get('content-type')?.toLowerCase().includes('problem')) return;
        hooks = (require('./problems.ts') as typeof import('./problems.ts')).problemCodes();
      }
      return hooks.onSend?.(response, ctx, request);
    },
  };
}

/** Adds the `/docs-md` deprecation fields to a response that lacks them (401, 429 and the like). */
function deprecationSignals(origin: string): Hooks {
  return {
    onSend(response, _ctx, request) {
      if (response.headers.has('deprecation')) return;
      const path = new URL(request.url).pathname.replace(/^\/docs-md\/?/, '');
      let decoded = path;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        // Shown as sent.
      }
      const fields = deprecationHeaders(origin, decoded);
      response.headers.set('deprecation', fields.deprecation);
      response.headers.append('link', fields.link);
    },
  };
}

/**
 * Throws unless `routes` are at `paths`, in that order: the routes built on first use must be the
 * ones whose paths decided, at start-up, which requests they answer.
 */
function checkPaths(kind: string, routes: readonly AnyRouteDefinition[], paths: readonly string[]): void {
  const built = routes.map((route) => route.path);
  if (built.length !== paths.length || built.some((path, i) => path !== paths[i])) {
    throw new TypeError(
      `createSite: the ${kind} routes built are at ${built.join(', ')}, not at ${paths.join(', ')} as listed`,
    );
  }
}

/**
 * The site's App, every route registered. The pages (each also answering its Markdown) are
 * registered now; the Markdown surfaces (`/md`, `/docs-md`, `/llms.txt`) with the first request to
 * one of their paths; the machine routes (`api/machine-routes.ts`: the API index, OpenAPI, the
 * catalog, OAuth, `/mcp`) when the first request arrives that is not a GET or HEAD of a page path.
 * Each group is registered before that request is routed, so every request is answered as if all
 * were registered from the start. The site's first page thus waits neither for arktype nor for
 * the tool server (issue 18, item 6: the compiled site's first answer).
 */
export function createSite(options: SiteOptions): App {
  const { origin, content } = options;
  const quota = options.rateLimit ?? RATE_LIMIT;
  // Set once every start-up route is registered (below).
  let loadMachineRoutes: (request: Request) => void = () => {};
  const app = new App({
    title: 'Charter documentation site',
    version: SITE_VERSION,
    production: options.production ?? false,
    logger: options.logger,
    behindProxy: options.behindProxy ?? 'none',
    securitySchemes: {
      bearer: httpBearerScheme({
        bearerFormat: 'JWT',
        description:
          'Optional OAuth 2.0 access token (client credentials, scope docs:read) from POST /oauth/token. ' +
          'Every resource is usable without one.',
      }),
    },
    // First, the machine routes for the requests that may need them. Problem documents gain `code`
    // and `hint` on their way out, whoever produced them; unmatched paths answer in HTML or Markdown
    // when the client prefers it. Constructor hooks see unmatched requests too.
    hooks: [
      { onRequest: (request) => loadMachineRoutes(request) },
      problemCodesOnFirstProblem(),
      notFoundFallback({ content, origin }),
      apiPathVersion(),
    ],
  });
  app.use(requestLog(app.logger));
  // Public documents: any origin may read them, sending a token or a pinned version if it likes
  // (a preflight then asks for those headers); no cookies are involved, so no credentials mode.
  const publicCors = cors({
    origin: '*',
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['authorization', API_VERSION_HEADER.toLowerCase()],
    exposedHeaders: [...EXPOSED_HEADERS],
  });
  const tokens = createTokenService({ origin, key: options.tokenKey, now: options.now });
  const bearers = new Map<string, Hooks>();
  const limit = rateLimit({
    windowMs: quota.windowMs,
    max: quota.max,
    phase: 'preBody',
    legacyHeaders: true,
    store: options.rateLimitStore,
    logger: options.logger === false ? undefined : app.logger,
  });
  const siteHooks: SiteHooks = {
    apiVersion: apiVersionEcho(),
    deprecated: deprecationSignals(origin),
    readableAnywhere: publicCors,
    limit,
    limitMarkdown: limitMarkdownAnswers(limit),
    bearer(resource) {
      let hooks = bearers.get(resource);
      if (hooks === undefined) {
        hooks = optionalBearer({ tokens, origin, resource });
        bearers.set(resource, hooks);
      }
      return hooks;
    },
  };
  const publicPaths = new RoutePaths();
  // Every hook before the first route: a hook added later recompiles every route registered before it
  // (the registry's generation), and the pages would be compiled twice before the first page.
  app.use(preflights(publicPaths, publicCors));
  const register = (route: AnyRouteDefinition): void => {
    const policy = policyOf(route);
    if (policy.api && route.method === 'GET') publicPaths.add(route.path);
    app.route(withPolicy(route, policy, siteHooks));
  };
  // The page routes: the home page's now (it also goes into Bun's native table), the others with the
  // first request that needs them: a GET or HEAD of another fixed page URL (`/docs`, `/changelog.md`)
  // builds and registers only that URL's route, any other request all of them. Building and
  // registering a route is most of `createSite`'s work (its policy, its declared answers, the
  // registry's checks), and the first page needs one (issue 18, item 6): until then the routes are
  // known by their paths only.
  const pageList = pageRoutePaths(content);
  const pagePaths = new RoutePaths();
  for (const path of pageList) pagePaths.add(path);
  // The fixed page URLs (no parameter, no wildcard) that no wildcard route's prefix covers: a request
  // for exactly one of them is routed to its route whatever else is registered. (A parameter route
  // could match any of them: then every request but the home page's registers them all.)
  const wildcardPages = new RoutePaths();
  for (const path of pageList) if (path.includes('*')) wildcardPages.add(path);
  const fixedPages = new Set(
    pageList.some((path) => path.includes(':'))
      ? [HOME_PATH]
      : pageList.filter((path) => !path.includes('*') && !wildcardPages.has(path)),
  );
  /** Builds the page routes at `paths` (in `pageList`'s order) and registers them. */
  const registerPages = (paths: readonly string[]): void => {
    if (paths.length === 0) return;
    const routes = pageRoutes({ content, origin }, new Set(paths));
    checkPaths('page', routes, paths);
    for (const route of routes) register(route);
  };
  let pendingPages = pageList.filter((path) => path !== HOME_PATH);
  registerPages(pageList.filter((path) => path === HOME_PATH));
  // The fixed page URLs whose routes are registered: a request for one of them (the usual request
  // until something else comes) finds nothing to do in one lookup, not in a pass over the pending list.
  const registeredFixed = new Set([HOME_PATH]);
  const loadPageRoutes = (request: Request): void => {
    if (pendingPages.length === 0) return;
    const path = request.method === 'GET' || request.method === 'HEAD' ? requestPath(request.url) : '';
    const fixed = fixedPages.has(path);
    if (fixed && registeredFixed.has(path)) return;
    const now = fixed ? pendingPages.filter((pending) => pending === path) : pendingPages;
    pendingPages = fixed ? pendingPages.filter((pending) => pending !== path) : [];
    if (fixed) registeredFixed.add(path);
    registerPages(now);
  };
  // The Markdown surfaces (`/md`, `/docs-md`, `/llms.txt`): their paths are page paths from now on,
  // the routes are built and registered with the first request to one of them, or with the machine
  // routes.
  const markdownPaths = new RoutePaths();
  for (const path of MARKDOWN_ROUTE_PATHS) {
    pagePaths.add(path);
    markdownPaths.add(path);
  }
  let markdownLoaded = false;
  const loadMarkdownRoutes = (): void => {
    if (markdownLoaded) return;
    markdownLoaded = true;
    const markdown = markdownRoutes({ content, origin });
    checkPaths('Markdown', markdown, MARKDOWN_ROUTE_PATHS);
    for (const route of markdown) register(route);
  };

  const machineOptions: MachineRoutesOptions = {
    app,
    origin,
    content,
    version: SITE_VERSION,
    rateLimit: { limit: quota.max, windowSeconds: Math.ceil(quota.windowMs / 1000) },
    tokens,
    // Each member of a JSON-RPC batch counts against the shared quota, like a request of its own.
    batchLimit: siteHooks.limit,
  };
  let machine: 'waiting' | 'loaded' | { readonly failed: unknown } = 'waiting';
  loadMachineRoutes = (request) => {
    if (machine === 'loaded') return;
    if (machine !== 'waiting') throw machine.failed;
    loadPageRoutes(request);
    const path = new URL(request.url).pathname;
    // Any method: another method than GET on `/llms.txt` is answered 405 by its route, as before.
    if (!markdownLoaded && markdownPaths.has(path)) loadMarkdownRoutes();
    if ((request.method === 'GET' || request.method === 'HEAD') && pagePaths.has(path)) return;
    loadMarkdownRoutes();
    try {
      // `require`: synchronous, so the request that needed them is routed among them; a bundle
      // evaluates the module (and arktype, the OpenAPI generator, the tool server) only now.
      const { machineRoutes } =
        require('./api/machine-routes.ts') as typeof import('./api/machine-routes.ts');
      for (const route of machineRoutes(machineOptions)) {
        if (pagePaths.has(route.path)) {
          throw new TypeError(`createSite: ${route.method} ${route.path} is among the page paths`);
        }
        register(route);
      }
      machine = 'loaded';
    } catch (error) {
      // Half registered is no state to serve from: every request that needs them fails alike.
      machine = { failed: error };
      throw error;
    }
  };
  return app;
}

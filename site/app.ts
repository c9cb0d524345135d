/**
 * The documentation site as one Charter App: the pages rendered from `content/`, their Markdown
 * forms and `/llms.txt`, the versioned JSON index, the discovery documents, OAuth 2.0 tokens, and
 * the docs tool server at `/mcp`. Every module returns plain route definitions; this file decides,
 * per route and once at start-up, which of the site's cross-cutting rules apply (site.md
 * "Endpoints"): the shared rate limit, the optional bearer token, the `API-Version` echo.
 */
import { App } from '@charter/app';
import {
  type AnyRouteDefinition,
  cors,
  type Hooks,
  httpBearerScheme,
  type Logger,
  type RateLimitStore,
  rateLimit,
} from '@charter/core';
import { toOpenAPIPath } from '@charter/openapi';
import { type } from 'arktype';
import { API_MAJOR, API_VERSION_HEADER, lifecycle } from './api/lifecycle.ts';
import { apiRoutes, type IndexedEndpoint } from './api/routes.ts';
import { ApiMajorHeader, HeaderInteger, HeaderText } from './api/header-schemas.ts';
import { apiVersionEcho } from './api/version.ts';
import type { ContentSite } from './content/types.ts';
import { apiCatalogRoute } from './discovery/api-catalog.ts';
import { FAVICON_URL } from './html/index.ts';
import { openapiRoute } from './discovery/openapi.ts';
import { docsMcpServer } from './mcp/server.ts';
import { serverCardRoute } from './mcp/server-card.ts';
import { optionalBearer } from './oauth/bearer.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { createTokenService } from './oauth/tokens.ts';
import { deprecationHeaders } from './pages/docs-md.ts';
import { markdownRoutes, pageRoutes } from './pages/index.ts';
import { problemCodes } from './problems.ts';
import { requestLog } from './request-log.ts';
import { notFoundFallback } from './not-found.ts';

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

/** HTML pages (which also answer `.md` and `Accept: text/markdown`) share the quota; assets do not. */
function policyOf(route: AnyRouteDefinition): RoutePolicy {
  const known = POLICIES[route.path];
  if (known !== undefined) return known;
  if (route.path.startsWith('/assets/')) return { limited: false, api: false };
  // Pages answer their Markdown form too (`.md`, Accept): a token sent there is checked as on /md.
  return { limited: true, api: false, resource: 'md' };
}

const text = HeaderText;
const integer = HeaderInteger;

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

function rateLimitHeaders(): Record<string, { description: string; schema: typeof text | typeof integer }> {
  return {
    RateLimit: {
      description: 'Remaining quota: `"default";r=<remaining>;t=<seconds to reset>` (RFC 9651 list)',
      schema: text,
    },
    'RateLimit-Policy': { description: 'The quota: `"default";q=120;w=60`', schema: text },
    'RateLimit-Limit': { description: 'Requests allowed per window (integer)', schema: integer },
    'RateLimit-Remaining': { description: 'Requests left in the window (integer)', schema: integer },
    'RateLimit-Reset': { description: 'Seconds until the window resets (integer)', schema: integer },
  };
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
  if (policy.limited) before.push(hooks.limit);
  if (takesToken(route, policy)) before.push(hooks.bearer(policy.resource ?? ''));
  if (route.path === '/docs-md' || route.path === '/docs-md/*path') before.push(hooks.deprecated);
  // Read-only documents are public: a script on any origin may read them (no credentials).
  if (policy.api && route.method === 'GET') before.push(hooks.readableAnywhere);
  const own = route.hooks === undefined ? [] : Array.isArray(route.hooks) ? route.hooks : [route.hooks];
  const responses: Record<number, Record<string, unknown>> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers: Record<string, unknown> = { ...(spec as { headers?: object }).headers };
    if (policy.api) {
      headers[API_VERSION_HEADER] = { description: 'The API major: always `1`', schema: ApiMajorHeader };
    }
    if (policy.limited) Object.assign(headers, rateLimitHeaders());
    responses[Number(status)] = { ...(spec as object), headers };
  }
  if (policy.limited) {
    responses[429] = {
      description: 'Quota exhausted (`code`: `rate_limited`); retry after `Retry-After` seconds',
      headers: {
        ...rateLimitHeaders(),
        'Retry-After': { description: 'Seconds to wait (integer)', schema: integer },
        ...(policy.api && {
          [API_VERSION_HEADER]: { description: 'The API major: always `1`', schema: ApiMajorHeader },
        }),
      },
    };
  }
  const declared: Partial<AnyRouteDefinition> = {};
  if (takesToken(route, policy)) {
    declared.auth = { scheme: 'bearer', scopes: ['docs:read'], optional: true };
    responses[401] ??= {
      description:
        'A bearer token was sent but is invalid or expired (`WWW-Authenticate` names the metadata)',
      headers: { 'WWW-Authenticate': { description: 'RFC 6750 / RFC 9728 challenge', schema: text } },
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
 * Answers CORS preflights (Fetch §3.2.2: OPTIONS with Origin and Access-Control-Request-Method) for
 * the public documents, before routing, where no route would: `paths` are route paths, a trailing
 * `*name` matching any rest. Other preflights fall through to the router (405).
 */
function preflights(paths: readonly string[], policy: Hooks): Hooks {
  const exact = new Set(paths.filter((path) => !path.includes('*')));
  const prefixes = paths.filter((path) => path.includes('*')).map((path) => path.slice(0, path.indexOf('*')));
  return {
    onRequest(request) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return;
      const path = new URL(request.url).pathname;
      if (exact.has(path) || prefixes.some((prefix) => path.startsWith(prefix)))
        return policy.onRequest?.(request);
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

/** The site's App, every route registered. */
export function createSite(options: SiteOptions): App {
  const { origin, content } = options;
  const quota = options.rateLimit ?? RATE_LIMIT;
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
    // Problem documents gain `code` and `hint` on their way out, whoever produced them; unmatched
    // paths answer in HTML or Markdown when the client prefers it. Constructor hooks see unmatched
    // requests too.
    hooks: [problemCodes(), notFoundFallback({ content, origin }), apiPathVersion()],
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
  const siteHooks: SiteHooks = {
    apiVersion: apiVersionEcho(),
    deprecated: deprecationSignals(origin),
    readableAnywhere: publicCors,
    limit: rateLimit({
      windowMs: quota.windowMs,
      max: quota.max,
      phase: 'preBody',
      legacyHeaders: true,
      store: options.rateLimitStore,
      logger: options.logger === false ? undefined : app.logger,
    }),
    bearer(resource) {
      let hooks = bearers.get(resource);
      if (hooks === undefined) {
        hooks = optionalBearer({ tokens, origin, resource });
        bearers.set(resource, hooks);
      }
      return hooks;
    },
  };
  const policy = lifecycle(origin);
  // Each member of a JSON-RPC batch counts against the shared quota, like a request of its own.
  const mcp = docsMcpServer({
    content,
    origin,
    auth: {},
    version: SITE_VERSION,
    batchLimit: siteHooks.limit,
  });
  const routes: AnyRouteDefinition[] = [
    ...pageRoutes({ content, origin }),
    ...markdownRoutes({ content, origin }),
    ...apiRoutes({
      origin,
      lifecycle: policy,
      endpoints: () => indexedEndpoints(app, origin),
      rateLimit: { limit: quota.max, windowSeconds: Math.ceil(quota.windowMs / 1000) },
    }),
    openapiRoute({ app, origin, lifecycle: policy, version: SITE_VERSION }),
    apiCatalogRoute(origin),
    serverCardRoute({ origin, handler: mcp.handler, tools: mcp.tools, iconUrl: origin + FAVICON_URL }),
    ...oauthRoutes({ origin, tokens }),
    ...mcp.routes,
  ];
  const publicPaths: string[] = [];
  for (const route of routes) {
    const policy = policyOf(route);
    if (policy.api && route.method === 'GET') publicPaths.push(route.path);
    app.route(withPolicy(route, policy, siteHooks));
  }
  app.use(preflights(publicPaths, publicCors));
  return app;
}

/** The machine endpoints for the API index: every route in the OpenAPI document. */
function indexedEndpoints(app: App, origin: string): IndexedEndpoint[] {
  const out: IndexedEndpoint[] = [];
  for (const route of app.registeredRoutes()) {
    const definition = route.definition;
    if (definition.openapi?.exclude === true || route.method === 'OPTIONS') continue;
    const path = toOpenAPIPath(route.path).template;
    out.push({
      id: route.operationId ?? `${route.method} ${route.path}`,
      method: route.method,
      path,
      url: origin + path,
      summary: definition.summary ?? '',
      authentication: route.auth?.optional === true ? 'optional-bearer' : 'none',
      rateLimited: definition.meta?.['rate-limit'] !== undefined,
      deprecated: definition.deprecated === true,
    });
  }
  return out;
}

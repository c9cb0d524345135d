/**
 * The site's machine surfaces as route definitions: the API index (`/api/v1`, `/api`), the OpenAPI
 * document, the RFC 9727 catalog, the tool-server card, OAuth and the `/mcp` tool server. They need
 * arktype, the OpenAPI generator and the tool server, which the pages do not, so `createSite` loads
 * this module only when the first request that could reach one of them arrives (see `app.ts`); the
 * site's first page does not wait for them.
 */
import type { AnyRouteDefinition, App, Hooks } from '@charter/core';
import { toOpenAPIPath } from '@charter/openapi';
import type { ContentSite } from '../content/types.ts';
import { apiCatalogRoute } from '../discovery/api-catalog.ts';
import { openapiRoute } from '../discovery/openapi.ts';
import { FAVICON_URL } from '../html/index.ts';
import type { SearchIndex } from '../mcp/search.ts';
import { serverCardRoute } from '../mcp/server-card.ts';
import { docsMcpServer } from '../mcp/server.ts';
import { oauthRoutes } from '../oauth/routes.ts';
import { searchIndexOf } from '../search/index-cache.ts';
import type { TokenService } from '../oauth/tokens.ts';
import { lifecycle } from './lifecycle.ts';
import { apiRoutes, type IndexedEndpoint } from './routes.ts';

/** What the machine routes share with the rest of the site. */
export interface MachineRoutesOptions {
  /** The site's App: the API index and the OpenAPI document list its routes when first asked. */
  readonly app: App;
  readonly origin: string;
  readonly content: ContentSite;
  /** The site's release (`info.version`, `serverInfo.version`). */
  readonly version: string;
  /** The shared quota, as the API index publishes it. */
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number };
  readonly tokens: TokenService;
  /** The shared rate limit: each member of a JSON-RPC batch counts against it. */
  readonly batchLimit: Hooks;
}

/**
 * The search index of the tool server, built the first time `search_docs` runs (it tokenises every
 * page): the same index, the same answers, only later.
 */
function searchIndexOnFirstUse(content: ContentSite): SearchIndex {
  let index: SearchIndex | undefined;
  return Object.freeze({
    search: (...args: Parameters<SearchIndex['search']>) => {
      // The index the search page uses too (`site/search`): built once, whoever asks first.
      index ??= searchIndexOf(content);
      return index.search(...args);
    },
    // `createSearchIndex` indexes every page.
    size: content.pages.length,
  });
}

/** The machine routes, in the order the site registers them. */
export function machineRoutes(options: MachineRoutesOptions): AnyRouteDefinition[] {
  const { app, origin, content, version } = options;
  const policy = lifecycle(origin);
  const mcp = docsMcpServer({
    content,
    origin,
    auth: {},
    version,
    batchLimit: options.batchLimit,
    index: searchIndexOnFirstUse(content),
  });
  return [
    ...apiRoutes({
      origin,
      lifecycle: policy,
      endpoints: () => indexedEndpoints(app, origin),
      rateLimit: options.rateLimit,
    }),
    openapiRoute({ app, origin, lifecycle: policy, version }),
    apiCatalogRoute(origin),
    serverCardRoute({ origin, handler: mcp.handler, tools: mcp.tools, iconUrl: origin + FAVICON_URL }),
    ...oauthRoutes({ origin, tokens: options.tokens }),
    ...mcp.routes,
  ];
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

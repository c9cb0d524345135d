/**
 * `GET /.well-known/api-catalog` (RFC 9727): the site's APIs as an RFC 9264 linkset. The first
 * context is the catalog itself, listing each API with `item` (RFC 9727 §4.1); each API then has
 * its own context with `service-desc` (machine description), `service-doc` (human documentation)
 * and `service-meta` (metadata) links (RFC 8631). Every response, HEAD included, carries
 * `Link: <catalog>; rel="api-catalog"` (RFC 9727 §3).
 */
import type { AnyRouteDefinition } from '@charter/core';
import { type } from 'arktype';

/** RFC 9727 §4.2: the linkset media type with the api-catalog profile. */
export const API_CATALOG_CONTENT_TYPE =
  'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

const Target = type({ href: 'string', 'type?': 'string', 'title?': 'string' });

/** The linkset document (RFC 9264 §4.2). */
export const Linkset = type({
  linkset: type({ anchor: 'string', '[string]': Target.array().or('string') }).array(),
});

/** The catalog's linkset for a site at `origin`. */
export function apiCatalog(origin: string): typeof Linkset.infer {
  const catalog = `${origin}/.well-known/api-catalog`;
  return {
    linkset: [
      {
        anchor: catalog,
        item: [
          { href: `${origin}/api/v1`, title: 'Site JSON API, version 1' },
          { href: `${origin}/mcp`, title: 'Documentation tool server (MCP)' },
        ],
      },
      {
        anchor: `${origin}/api/v1`,
        'service-desc': [
          { href: `${origin}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
        ],
        'service-doc': [{ href: `${origin}/docs/site-apis`, type: 'text/html' }],
        'service-meta': [
          { href: `${origin}/.well-known/oauth-protected-resource/api/v1`, type: 'application/json' },
        ],
      },
      {
        anchor: `${origin}/mcp`,
        'service-desc': [{ href: `${origin}/.well-known/mcp/server-card.json`, type: 'application/json' }],
        'service-doc': [{ href: `${origin}/docs/site-apis`, type: 'text/html' }],
        'service-meta': [
          { href: `${origin}/.well-known/oauth-protected-resource/mcp`, type: 'application/json' },
        ],
      },
    ],
  };
}

/** The `/.well-known/api-catalog` route (HEAD derived from it, with the same Link header). */
export function apiCatalogRoute(origin: string): AnyRouteDefinition {
  const catalog = `${origin}/.well-known/api-catalog`;
  const body = new TextEncoder().encode(JSON.stringify(apiCatalog(origin)));
  Linkset.assert(apiCatalog(origin));
  return {
    method: 'GET',
    path: '/.well-known/api-catalog',
    operationId: 'getApiCatalog',
    summary: 'RFC 9727 API catalog (an RFC 9264 linkset)',
    tags: ['discovery'],
    responses: {
      200: {
        description: 'The API catalog',
        contentType: 'application/linkset+json',
        headers: {
          Link: {
            description: 'RFC 9727 §3: `<…/.well-known/api-catalog>; rel="api-catalog"`',
            schema: type('string'),
          },
        },
      },
    },
    openapi: { jsonSchema: { responses: { 200: Linkset.toJsonSchema() as Record<string, unknown> } } },
    handler: () => ({
      status: 200 as const,
      body,
      headers: {
        'content-type': API_CATALOG_CONTENT_TYPE,
        link: `<${catalog}>; rel="api-catalog"`,
        'cache-control': 'public, max-age=3600',
      },
    }),
  };
}

/**
 * `GET /api/v1`, the catalog of the site's machine endpoints with its versioning policy, and
 * `GET /api`, the unversioned alias that permanently redirects to the current major (site.md
 * rule 1, Versioning 5).
 */
import type { AnyRouteDefinition } from '@charter/core';
import { type } from 'arktype';
import { API_MAJOR, API_PATH, API_VERSION_HEADER, type Lifecycle } from './lifecycle.ts';
import { ACCEPTED_API_VERSIONS, apiVersionGuard } from './version.ts';

/** One machine endpoint, as the index lists it. */
export interface IndexedEndpoint {
  /** The operationId. */
  readonly id: string;
  readonly method: string;
  /** OpenAPI path template (`/md/{path}`). */
  readonly path: string;
  readonly url: string;
  readonly summary: string;
  /** `none`, or `optional-bearer`: usable anonymously, or with a `docs:read` token. */
  readonly authentication: 'none' | 'optional-bearer';
  readonly rateLimited: boolean;
  readonly deprecated: boolean;
}

const Surface = type({
  id: 'string',
  path: 'string',
  url: 'string',
  status: "'current' | 'deprecated'",
  deprecatedAt: 'string | null',
  sunsetAt: 'string | null',
  successor: 'string | null',
  summary: 'string',
});

const Versioning = type({
  current: 'string',
  path: 'string',
  header: 'string',
  acceptedVersions: 'string[]',
  documentation: 'string',
  sunsetNoticeDays: 'number.integer',
  signals: {
    deprecationHeader: 'string',
    deprecationHeaderFormat: 'string',
    sunsetHeader: 'string',
    sunsetHeaderFormat: 'string',
    linkRelations: 'string[]',
  },
  surfaces: Surface.array(),
});

/** The body of `GET /api/v1`. */
export const ApiIndex = type({
  name: 'string',
  description: 'string',
  apiVersion: 'string',
  links: {
    self: 'string',
    openapi: 'string',
    apiCatalog: 'string',
    serverCard: 'string',
    llms: 'string',
    documentation: 'string',
  },
  endpoints: type({
    id: 'string',
    method: 'string',
    path: 'string',
    url: 'string',
    summary: 'string',
    authentication: "'none' | 'optional-bearer'",
    rateLimited: 'boolean',
    deprecated: 'boolean',
  }).array(),
  authentication: {
    required: 'boolean',
    schemes: 'string[]',
    scopes: 'string[]',
    tokenEndpoint: 'string',
    metadata: 'string',
  },
  rateLimit: { policy: 'string', limit: 'number.integer', windowSeconds: 'number.integer' },
  versioning: Versioning,
});

/** Options of `apiRoutes`. */
export interface ApiRoutesOptions {
  readonly origin: string;
  readonly lifecycle: Lifecycle;
  /** The machine endpoints, read when the index is first asked for (after every route is registered). */
  readonly endpoints: () => readonly IndexedEndpoint[];
  readonly rateLimit: { readonly limit: number; readonly windowSeconds: number };
}

const NAME = 'Charter documentation site';

/** The `/api/v1` and `/api` routes. */
export function apiRoutes(options: ApiRoutesOptions): AnyRouteDefinition[] {
  const { origin, lifecycle } = options;
  let index: typeof ApiIndex.infer | undefined;
  const build = (): typeof ApiIndex.infer => ({
    name: NAME,
    description:
      "The machine-readable surfaces of Charter's documentation: discovery documents, the docs tool server, " +
      'OAuth 2.0 tokens, and every page as Markdown. Every resource is public; tokens are optional.',
    apiVersion: API_MAJOR,
    links: {
      self: origin + API_PATH,
      openapi: `${origin}/openapi.json`,
      apiCatalog: `${origin}/.well-known/api-catalog`,
      serverCard: `${origin}/.well-known/mcp/server-card.json`,
      llms: `${origin}/llms.txt`,
      documentation: `${origin}/docs/site-apis`,
    },
    endpoints: options.endpoints().map((e) => ({ ...e })),
    authentication: {
      required: false,
      schemes: ['bearer'],
      scopes: ['docs:read'],
      tokenEndpoint: `${origin}/oauth/token`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
    },
    rateLimit: { policy: 'default', ...options.rateLimit },
    versioning: {
      ...lifecycle,
      acceptedVersions: [...ACCEPTED_API_VERSIONS],
      signals: { ...lifecycle.signals, linkRelations: [...lifecycle.signals.linkRelations] },
      surfaces: lifecycle.surfaces.map((s) => ({ ...s })),
    },
  });
  const versionHeader = {
    description: 'The major version this response belongs to: always `1` here',
    schema: type("'1'"),
  };
  return [
    {
      method: 'GET',
      path: API_PATH,
      operationId: 'getApiIndex',
      summary: 'Catalog of the machine endpoints and the versioning policy',
      description:
        `Lists every machine endpoint of the site and publishes the whole versioning and deprecation policy under ` +
        `\`versioning\`. An \`${API_VERSION_HEADER}\` request header may pin the major: ${ACCEPTED_API_VERSIONS.map((v) => `\`${v}\``).join(', ')} ` +
        'or none; anything else is refused with 400 `unsupported_api_version`.',
      tags: ['api'],
      request: {
        // The values apiVersionGuard accepts, exactly (issue 19): anything else, empty included, is its 400.
        headers: type({
          [`${API_VERSION_HEADER.toLowerCase()}?`]: type.enumerated(...ACCEPTED_API_VERSIONS),
        }),
      },
      responses: {
        200: {
          description: 'The API index',
          body: ApiIndex,
          headers: { [API_VERSION_HEADER]: versionHeader },
        },
        400: { description: 'The pinned API version is not served here (`code`: `unsupported_api_version`)' },
      },
      hooks: apiVersionGuard(),
      handler: () => {
        index ??= build();
        return { status: 200 as const, body: index, headers: { 'cache-control': 'public, max-age=300' } };
      },
    },
    {
      method: 'GET',
      path: '/api',
      operationId: 'getApiAlias',
      summary: 'Unversioned alias: permanent redirect to the current major',
      tags: ['api'],
      responses: {
        308: {
          description: `Permanent redirect to ${API_PATH}`,
          headers: {
            Location: { description: 'The current versioned path', schema: type('string') },
            [API_VERSION_HEADER]: versionHeader,
            Link: {
              description: 'The current major, as `successor-version` and `latest-version` (RFC 5829)',
              schema: type('string'),
            },
          },
        },
      },
      handler: () => ({
        status: 308 as const,
        body: undefined,
        headers: {
          location: origin + API_PATH,
          [API_VERSION_HEADER]: API_MAJOR,
          link: `<${origin}${API_PATH}>; rel="successor-version", <${origin}${API_PATH}>; rel="latest-version"`,
          'cache-control': 'public, max-age=86400',
        },
      }),
    },
  ];
}

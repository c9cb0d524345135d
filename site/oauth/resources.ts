/**
 * The protected resources of the site (RFC 9728 §1.2): the origin as a whole, and three narrower
 * ones a client may ask a token for with the RFC 8707 `resource` parameter. A resource identifier is
 * `<origin>/<id>`; the origin's own identifier is the origin, with no trailing slash, so it equals
 * the authorization server's `issuer` (RFC 8414 §2).
 *
 * A token whose `aud` is the origin is good everywhere; one whose `aud` is `<origin>/mcp` only on
 * `/mcp`, and so on (see `acceptedAudiences`).
 */

/** The id of the origin-wide resource: the empty string, so its URL is the origin itself. */
export const ORIGIN_RESOURCE_ID = '';

/** One protected resource of this origin. */
export interface ProtectedResource {
  /** `''` (the origin), `mcp`, `api/v1` or `md`: the resource URL is `<origin>/<id>`. */
  readonly id: string;
  /** Human-readable name, the RFC 9728 §2 `resource_name`. */
  readonly name: string;
  /** The URL paths the resource covers: `/<id>` and everything below it (the origin: every path). */
  readonly pathPrefix: string;
}

/** Every protected resource of the site, the origin first. */
export const PROTECTED_RESOURCES: readonly ProtectedResource[] = Object.freeze([
  Object.freeze({ id: ORIGIN_RESOURCE_ID, name: 'Charter documentation site', pathPrefix: '/' }),
  Object.freeze({ id: 'mcp', name: 'Charter documentation tool server (MCP)', pathPrefix: '/mcp' }),
  Object.freeze({ id: 'api/v1', name: 'Charter site JSON API, version 1', pathPrefix: '/api/v1' }),
  Object.freeze({ id: 'md', name: 'Charter documentation as Markdown', pathPrefix: '/md' }),
]);

const BY_ID: ReadonlyMap<string, ProtectedResource> = new Map(PROTECTED_RESOURCES.map((r) => [r.id, r]));

/** The resource with this id, or undefined. */
export function findProtectedResource(id: string): ProtectedResource | undefined {
  return BY_ID.get(id);
}

/**
 * Checks a site origin and returns it in its serialized form (`http://localhost:3000`: scheme, host,
 * port when not the default, no trailing slash). Throws a TypeError for anything that is not an
 * http(s) origin: a path, query, fragment or user info would make `issuer` and every resource URL
 * ambiguous.
 */
export function resolveSiteOrigin(origin: string, option = 'origin'): string {
  if (typeof origin !== 'string' || origin.length === 0) {
    throw new TypeError(`${option} must be a non-empty string such as https://charter.dev`);
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`${option} must be an absolute URL such as https://charter.dev; got ${origin}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${option} must use http or https; got ${origin}`);
  }
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    origin.includes('#')
  ) {
    throw new TypeError(
      `${option} must be an origin only (scheme, host, port), without path, query or fragment; got ${origin}`,
    );
  }
  return url.origin;
}

/** The resource identifier (RFC 9728 §1.2) of resource `id`: `<origin>` or `<origin>/<id>`. */
export function resourceUrl(origin: string, id: string): string {
  return id === ORIGIN_RESOURCE_ID ? origin : `${origin}/${id}`;
}

/**
 * The RFC 9728 §3.1 metadata URL of resource `id`: the well-known suffix goes between the origin and
 * the resource's path, so `<origin>/mcp` has `<origin>/.well-known/oauth-protected-resource/mcp`.
 */
export function resourceMetadataUrl(origin: string, id: string): string {
  const base = `${origin}/.well-known/oauth-protected-resource`;
  return id === ORIGIN_RESOURCE_ID ? base : `${base}/${id}`;
}

/**
 * The id of the resource a URL path belongs to: the narrowest resource whose prefix covers it
 * (`/mcp` gives `mcp`, `/api/v1/x` gives `api/v1`, `/md/docs/jwt` gives `md`), else the origin
 * (`''`). For the lead, to pick the `resource` of `optionalBearer` per route.
 */
export function resourceIdForPath(path: string): string {
  for (const resource of PROTECTED_RESOURCES) {
    if (resource.id === ORIGIN_RESOURCE_ID) continue;
    const prefix = resource.pathPrefix;
    if (path === prefix || path.startsWith(`${prefix}/`)) return resource.id;
  }
  return ORIGIN_RESOURCE_ID;
}

/**
 * The id of the resource an RFC 8707 `resource` value names, or undefined when it names none of this
 * origin's resources. The value must be an absolute URL without a fragment (RFC 8707 §2) and without
 * a query (none of the resources has one); scheme and host compare case-insensitively and the default
 * port may be written or not (the URL parser normalises them), and one trailing slash is tolerated.
 */
export function resourceIdForUrl(origin: string, value: string): string | undefined {
  if (value.includes('#') || value.includes('?')) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.origin !== origin || url.username !== '' || url.password !== '') return undefined;
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const id = path.startsWith('/') ? path.slice(1) : path;
  return BY_ID.has(id) ? id : undefined;
}

/**
 * The `aud` values a token must contain (one of) to be good at resource `id`: the origin-wide
 * resource covers everything, so it is always accepted, plus the resource's own URL.
 */
export function acceptedAudiences(origin: string, id: string): readonly string[] {
  return id === ORIGIN_RESOURCE_ID ? [origin] : [origin, resourceUrl(origin, id)];
}

/** Every resource URL of this origin: the audiences a token of this origin may carry. */
export function allResourceUrls(origin: string): readonly string[] {
  return PROTECTED_RESOURCES.map((resource) => resourceUrl(origin, resource.id));
}

/**
 * The optional bearer check of the site's resources (site.md Authentication 1, 4): no
 * `Authorization` header passes anonymously; a Bearer token must be one of this origin's, unexpired,
 * and meant for the resource (its `aud` is the origin or the resource's URL, RFC 8707 §2). Anything
 * else sent as credentials is refused with a 401 whose challenge carries `resource_metadata`
 * (RFC 9728 §5.1), so the client can find where to get a good token.
 */
import { bearer, type Hooks } from '@charter/core';
import {
  acceptedAudiences,
  findProtectedResource,
  PROTECTED_RESOURCES,
  resolveSiteOrigin,
  resourceMetadataUrl,
} from './resources.ts';
import type { TokenService } from './tokens.ts';

/** The realm of the site's Bearer challenges (RFC 9110 §11.5). */
export const BEARER_REALM = 'charter-docs';

/** Options of `optionalBearer`. */
export interface OptionalBearerOptions {
  /** Verifies the tokens (`createTokenService`). */
  tokens: TokenService;
  /** The site origin; must be the token service's origin. */
  origin: string;
  /** The protected resource id of the routes the hooks guard: `''` (the origin), `mcp`, `api/v1`, `md`. */
  resource: string;
}

/**
 * Hooks for the routes of one protected resource (see `resourceIdForPath`). On a good token,
 * `ctx.state.user = { sub, scopes, claims }` (the token's subject, its scopes, all its claims) and
 * `ctx.state.auth = { scheme: 'bearer', credentials: token }`. A bad token: 401
 * `Bearer realm="charter-docs", error="invalid_token", ..., resource_metadata="<metadata URL>"`.
 */
export function optionalBearer(options: OptionalBearerOptions): Hooks {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('optionalBearer options must be an object');
  }
  const origin = resolveSiteOrigin(options.origin, 'optionalBearer: option "origin"');
  const { tokens, resource } = options;
  if (typeof tokens?.verify !== 'function' || tokens.origin !== origin) {
    throw new TypeError(
      'optionalBearer: option "tokens" must be the token service createTokenService made for this origin',
    );
  }
  if (typeof resource !== 'string' || findProtectedResource(resource) === undefined) {
    throw new TypeError(
      `optionalBearer: option "resource" must be one of ${PROTECTED_RESOURCES.map((r) => JSON.stringify(r.id)).join(', ')}`,
    );
  }
  const audience = acceptedAudiences(origin, resource);
  return bearer({
    realm: BEARER_REALM,
    optional: true,
    resourceMetadata: resourceMetadataUrl(origin, resource),
    async verify(token) {
      const claims = await tokens.verify(token, { audience });
      if (claims === undefined) return undefined;
      return { sub: claims.sub, scopes: claims.scope, claims: { ...claims } };
    },
  });
}

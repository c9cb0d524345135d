/**
 * `GET /assets/*name`: the site's stylesheet and scripts from `SITE_ASSETS`. Names carry a hash of
 * the content, so a name never changes meaning and caches may keep it for a year (RFC 8246).
 */
import { type AnyRouteDefinition, NotFoundError } from '@charter/core';
import { SITE_ASSETS, type SiteAsset } from '../html/index.ts';
import { answer, ASSET_CACHE_CONTROL, headerFields, type Representation } from './representation.ts';
import { assetNotModified, assetOk } from './route-specs.ts';

// RFC 9110 §15.4.5: what a 304 must not describe.
const NOT_ON_304: ReadonlySet<string> = new Set(['content-type']);

function assetRepresentation(asset: SiteAsset): Representation {
  const headers: [string, string][] = [
    ['content-type', asset.contentType],
    ['cache-control', ASSET_CACHE_CONTROL],
    ['etag', asset.etag],
  ];
  return Object.freeze({
    body: asset.body,
    etag: asset.etag,
    headers: headerFields(headers),
    notModifiedHeaders: headerFields(headers.filter(([name]) => !NOT_ON_304.has(name))),
  });
}

/** The assets route's path: `name` is an asset's content-hashed file name. */
export const ASSET_ROUTE_PATH = '/assets/*name';

/** `GET /assets/*name` over some assets keyed by URL path (default `SITE_ASSETS`). */
export function assetRoute(assets: ReadonlyMap<string, SiteAsset> = SITE_ASSETS): AnyRouteDefinition {
  // Built with the first asset request: a start that serves no asset (a first page) skips it.
  let reps: Map<string, Representation> | undefined;
  const representations = (): Map<string, Representation> => {
    if (reps === undefined) {
      reps = new Map();
      for (const [path, asset] of assets) reps.set(path, assetRepresentation(asset));
    }
    return reps;
  };
  return {
    method: 'GET',
    path: ASSET_ROUTE_PATH,
    operationId: 'getSiteAsset',
    summary: 'A stylesheet, script or image of the site pages (content-hashed name)',
    tags: ['pages'],
    responses: {
      200: assetOk(),
      304: assetNotModified(),
      404: {
        description: 'No asset of that name (an old hash after a deploy: reload the page)',
        contentType: 'application/problem+json',
      },
    },
    openapi: { exclude: true },
    handler: (ctx) => {
      // A lookup in the map built above: the name never reaches the filesystem.
      const rep = representations().get(`/assets/${ctx.params.name as string}`);
      if (rep === undefined) {
        throw new NotFoundError({
          detail: 'There is no site asset with this name.',
          extensions: {
            code: 'not_found',
            hint: 'Asset names change with their content; reload the page to get the current ones.',
          },
        });
      }
      return answer(ctx, rep);
    },
  };
}

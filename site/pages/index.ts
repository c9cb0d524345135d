/**
 * The site's page routes: HTML pages at their canonical URLs, their Markdown (`/md/{path}`,
 * `{url}.md`, `Accept: text/markdown`), the deprecated `/docs-md/{path}`, `/llms.txt` and the page
 * assets. Each answer is rendered the first time it is asked for and kept; later requests only look
 * it up.
 */
import type { AnyRouteDefinition } from '@charter/core';
import type { ContentSite } from '../content/types.ts';
import { SEARCH_PATH, searchRoute } from '../search/route.ts';
import { SUGGESTIONS_PATH, suggestionsRoute } from '../search/suggestions.ts';
import { ASSET_ROUTE_PATH, assetRoute } from './assets.ts';
import { DOCS_MD_PATHS, docsMdRoutes } from './docs-md.ts';
import { LLMS_PATH, llmsRoute } from './llms.ts';
import { MD_PATHS, mdRoutes } from './md-routes.ts';
import { type PagesOptions, resolvePagesOptions } from './options.ts';
import { htmlPageRoutePaths, htmlPageRoutes } from './page-routes.ts';

export { assetRoute } from './assets.ts';
export {
  DEPRECATION_POLICY_PATH,
  DOCS_MD_DEPRECATED_AT,
  DOCS_MD_DEPRECATION,
  docsMdRoutes,
} from './docs-md.ts';
export { buildLlmsTxt, llmsRoute } from './llms.ts';
export { mdRoutes } from './md-routes.ts';
export {
  type MediaRange,
  type Negotiated,
  negotiatePage,
  type PageMediaType,
  parseAccept,
} from './negotiate.ts';
export { type PagesOptions, resolvePagesOptions } from './options.ts';
export { PAGE_SECTIONS } from './page-routes.ts';
export { ASSET_CACHE_CONTROL, NOT_FOUND_CACHE_CONTROL, PAGE_CACHE_CONTROL } from './representation.ts';

/**
 * The HTML page routes (`/`, `/docs`, `/docs/*path`, `/errors/*path`, the `.md` URLs of the
 * top-level pages), the search page `GET /search` with the box's suggestions
 * (`GET /search/suggestions.json`) and `GET /assets/*name`. Left out of the OpenAPI
 * document. With `only`, just the routes whose path it holds, in the same order.
 */
export function pageRoutes(options: PagesOptions, only?: ReadonlySet<string>): AnyRouteDefinition[] {
  const resolved = resolvePagesOptions(options, 'pageRoutes');
  const wanted = (path: string): boolean => only === undefined || only.has(path);
  return [
    ...htmlPageRoutes(options, only),
    ...(wanted(SEARCH_PATH) ? [searchRoute({ content: resolved.content })] : []),
    ...(wanted(SUGGESTIONS_PATH) ? [suggestionsRoute({ content: resolved.content })] : []),
    ...(wanted(ASSET_ROUTE_PATH) ? [assetRoute()] : []),
  ];
}

/**
 * The paths of `pageRoutes`' routes, in its order, known without building them: `createSite` builds
 * a page's route with the first request that needs it (issue 18, item 6), and checks that what it
 * builds is at the path listed here.
 */
export function pageRoutePaths(content: ContentSite): string[] {
  return [...htmlPageRoutePaths(content), SEARCH_PATH, SUGGESTIONS_PATH, ASSET_ROUTE_PATH];
}

/** The paths of `markdownRoutes`' routes, in its order (see `pageRoutePaths`). */
export const MARKDOWN_ROUTE_PATHS: readonly string[] = Object.freeze([
  ...MD_PATHS,
  ...DOCS_MD_PATHS,
  LLMS_PATH,
]);

/** The machine Markdown surfaces: `/md`, `/md/*path`, `/docs-md`, `/docs-md/*path` and `/llms.txt`. */
export function markdownRoutes(options: PagesOptions): AnyRouteDefinition[] {
  return [...mdRoutes(options), ...docsMdRoutes(options), llmsRoute(options)];
}

/**
 * The site's page routes: HTML pages at their canonical URLs, their Markdown (`/md/{path}`,
 * `{url}.md`, `Accept: text/markdown`), the deprecated `/docs-md/{path}`, `/llms.txt` and the page
 * assets. Each answer is rendered the first time it is asked for and kept; later requests only look
 * it up.
 */
import type { AnyRouteDefinition } from '@charter/core';
import { assetRoute } from './assets.ts';
import { docsMdRoutes } from './docs-md.ts';
import { llmsRoute } from './llms.ts';
import { mdRoutes } from './md-routes.ts';
import { type PagesOptions, resolvePagesOptions } from './options.ts';
import { htmlPageRoutes } from './page-routes.ts';
import { searchRoute } from '../search/route.ts';
import { suggestionsRoute } from '../search/suggestions.ts';

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
 * document.
 */
export function pageRoutes(options: PagesOptions): AnyRouteDefinition[] {
  const resolved = resolvePagesOptions(options, 'pageRoutes');
  return [
    ...htmlPageRoutes(options),
    searchRoute({ content: resolved.content }),
    suggestionsRoute({ content: resolved.content }),
    assetRoute(),
  ];
}

/** The machine Markdown surfaces: `/md`, `/md/*path`, `/docs-md`, `/docs-md/*path` and `/llms.txt`. */
export function markdownRoutes(options: PagesOptions): AnyRouteDefinition[] {
  return [...mdRoutes(options), ...docsMdRoutes(options), llmsRoute(options)];
}

/**
 * The site's HTML: complete documents for content pages and the 404 page, the CSP they are built
 * for, and the static assets they link.
 */
export {
  FAVICON_URL,
  SCRIPT_INTEGRITY,
  SCRIPT_URL,
  SITE_ASSETS,
  type SiteAsset,
  STYLESHEET_URL,
} from './assets.ts';
export {
  type DocumentOptions,
  type NotFoundDocumentOptions,
  PAGE_CSP,
  renderNotFoundDocument,
  renderPageDocument,
} from './document.ts';

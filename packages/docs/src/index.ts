/**
 * @module charter/docs
 * Interactive API docs pages (Scalar API Reference, Swagger UI, Redoc) loading version-pinned,
 * integrity-checked assets, the Content-Security-Policy each needs, and `mountDocs` for the route.
 *
 * Only the public surface is exported here (the root `charter` barrel re-exports it); the validators,
 * escaping helpers and UI definitions the pages are built from stay internal to the package.
 */
export {
  DEFAULT_DOCS_ASSETS,
  DOCS_ASSET_SOURCES,
  DOCS_UIS,
  type DocsAsset,
  type DocsAssetSource,
  type DocsAssets,
  type DocsCrossOrigin,
  type DocsUi,
  type RedocAssets,
  type ScalarAssets,
  type SwaggerUiAssets,
} from './assets.ts';
export { type DocsContentSecurityPolicyOptions, docsContentSecurityPolicy } from './csp.ts';
export { docsPage } from './docs-page.ts';
export type { JsonObject, JsonValue } from './html.ts';
export { type HtmlResponseOptions, htmlResponse } from './html-response.ts';
export { type MountDocsOptions, mountDocs } from './mount.ts';
export { type RedocHtmlOptions, redocHtml } from './redoc.ts';
export type { DocsHtmlOptions, DocsPage } from './render.ts';
export { type ScalarHtmlOptions, scalarHtml } from './scalar.ts';
export { type SwaggerUiHtmlOptions, swaggerUiHtml } from './swagger-ui.ts';

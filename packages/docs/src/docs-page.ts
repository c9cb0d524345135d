/** `docsPage(ui, options)`: any of the three pages by name, with the CSP options it needs. */
import type { DocsUi } from './assets.ts';
import { REDOC_UI } from './redoc.ts';
import { type DocsHtmlOptions, type DocsPage, type DocsUiDefinition, renderDocsPage } from './render.ts';
import { SCALAR_UI } from './scalar.ts';
import { SWAGGER_UI } from './swagger-ui.ts';

/** Each UI's page definition, by name. */
export const DOCS_UI_DEFINITIONS: Readonly<Record<DocsUi, DocsUiDefinition>> = Object.freeze({
  scalar: SCALAR_UI,
  'swagger-ui': SWAGGER_UI,
  redoc: REDOC_UI,
});

/** Validates a UI name (default `scalar`). */
export function resolveDocsUi(value: unknown, option = 'ui'): DocsUi {
  if (value === undefined) return 'scalar';
  if (typeof value === 'string' && Object.hasOwn(DOCS_UI_DEFINITIONS, value)) return value as DocsUi;
  throw new TypeError(`${option} must be "scalar", "swagger-ui" or "redoc", got ${String(value)}`);
}

/**
 * The page of `ui` and what its Content-Security-Policy must allow; send both with
 * `htmlResponse(page.html, page.policy)`. Without `scriptNonce`, the policy lists the sha256 of
 * the page's init script.
 */
export function docsPage(ui: DocsUi, options: DocsHtmlOptions): DocsPage {
  return renderDocsPage(DOCS_UI_DEFINITIONS[resolveDocsUi(ui)], options);
}

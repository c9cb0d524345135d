/**
 * Scalar API Reference (`@scalar/api-reference`, browser standalone build): one script that
 * defines `Scalar.createApiReference(selector, configuration)`.
 */
import type { ScalarAssets } from './assets.ts';
import type { JsonObject } from './html.ts';
import {
  DOCS_CONFIG_ID,
  DOCS_MOUNT_ID,
  type DocsHtmlOptions,
  type DocsUiDefinition,
  renderDocsPage,
} from './render.ts';

/** Options of `scalarHtml`. */
export type ScalarHtmlOptions = DocsHtmlOptions<ScalarAssets>;

/**
 * Scalar's defaults here: `withDefaultFonts: false`, because the default fonts come from
 * fonts.scalar.com, a third origin the page's CSP does not list (and that would learn who reads
 * the docs); the page falls back to system fonts.
 */
const SCALAR_DEFAULTS: JsonObject = { withDefaultFonts: false };

/** Scalar's init script; it reads its configuration from the page's JSON data block. */
const INIT_SCRIPT =
  `Scalar.createApiReference('#${DOCS_MOUNT_ID}', ` +
  `JSON.parse(document.getElementById('${DOCS_CONFIG_ID}').textContent));`;

/**
 * Runs before Scalar's script: the zod copy inside it probes for `Function` (to compile its parsers)
 * unless `jitless` is set on its global config. Under the page's CSP that probe is refused (eval is
 * never allowed) and reported as a violation on every page view; zod then parses without compiling
 * anyway, so setting `jitless` changes nothing but the noise.
 */
const PRELUDE_SCRIPT = 'window.__zod_globalConfig = { jitless: true };';

/** How the Scalar page is built. */
export const SCALAR_UI: DocsUiDefinition = Object.freeze({
  ui: 'scalar',
  preludeScript: Object.freeze({
    source: PRELUDE_SCRIPT,
    hash: 'sha256-XyDJJPCjFjYoTp1rufKhRnuW0qzECRiY6+m7aPoaeDs=',
  }),
  initScript: Object.freeze({
    source: INIT_SCRIPT,
    hash: 'sha256-OMk3eFNBmSM+DDlIdgUIcOs/1VkpTvqR8gCMorYHs5s=',
  }),
  reservedKeys: Object.freeze(['url', 'content', 'spec', 'sources']),
  needs: Object.freeze({ allowInlineStyles: true, allowBlobWorkers: false }),
  data: (specUrl: string, configuration: JsonObject): JsonObject => ({
    ...SCALAR_DEFAULTS,
    ...configuration,
    url: specUrl,
  }),
});

/** The HTML of a Scalar API Reference page for the OpenAPI document at `specUrl`. */
export function scalarHtml(options: ScalarHtmlOptions): string {
  return renderDocsPage(SCALAR_UI, options).html;
}

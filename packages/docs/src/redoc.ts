/**
 * Redoc (`redoc`, standalone bundle): one script that defines
 * `Redoc.init(specUrl, options, element)`.
 */
import type { RedocAssets } from './assets.ts';
import type { JsonObject } from './html.ts';
import {
  DOCS_CONFIG_ID,
  DOCS_MOUNT_ID,
  type DocsHtmlOptions,
  type DocsUiDefinition,
  renderDocsPage,
} from './render.ts';

/** Options of `redocHtml`. */
export type RedocHtmlOptions = DocsHtmlOptions<RedocAssets>;

/** Redoc's init script: the configuration goes to `Redoc.init` as it was given. */
const INIT_SCRIPT = [
  '(function () {',
  `  var data = JSON.parse(document.getElementById('${DOCS_CONFIG_ID}').textContent);`,
  `  Redoc.init(data.specUrl, data.configuration, document.getElementById('${DOCS_MOUNT_ID}'));`,
  '})();',
].join('\n');

/** How the Redoc page is built. */
export const REDOC_UI: DocsUiDefinition = Object.freeze({
  ui: 'redoc',
  initScript: Object.freeze({
    source: INIT_SCRIPT,
    hash: 'sha256-tTPxPEmd1CeYPuYPMQwIPQmsYtX1H5jJRpMLUQzGPXk=',
  }),
  reservedKeys: Object.freeze([]),
  needs: Object.freeze({ allowInlineStyles: true, allowBlobWorkers: true }),
  data: (specUrl: string, configuration: JsonObject): JsonObject => ({ specUrl, configuration }),
});

/** The HTML of a Redoc page for the OpenAPI document at `specUrl`; `configuration` is forwarded verbatim. */
export function redocHtml(options: RedocHtmlOptions): string {
  return renderDocsPage(REDOC_UI, options).html;
}

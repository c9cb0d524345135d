/**
 * Swagger UI (`swagger-ui-dist`): a script group of two (`SwaggerUIBundle` and
 * `SwaggerUIStandalonePreset`) plus its stylesheet.
 */
import type { SwaggerUiAssets } from './assets.ts';
import type { JsonObject } from './html.ts';
import {
  DOCS_CONFIG_ID,
  DOCS_MOUNT_ID,
  type DocsHtmlOptions,
  type DocsUiDefinition,
  renderDocsPage,
} from './render.ts';

/** Options of `swaggerUiHtml`. */
export type SwaggerUiHtmlOptions = DocsHtmlOptions<SwaggerUiAssets>;

/**
 * Swagger UI's defaults here. `validatorUrl: null` turns off the validator badge, which would send
 * the spec URL to validator.swagger.io (a third origin the CSP does not list). `layout` is the
 * standalone layout with its top bar, as in Swagger UI's own index.html.
 */
const SWAGGER_UI_DEFAULTS: JsonObject = {
  layout: 'StandaloneLayout',
  deepLinking: true,
  validatorUrl: null,
};

/** Swagger UI's init script: its presets are functions, so they are added here rather than in the JSON. */
const INIT_SCRIPT = [
  '(function () {',
  `  var config = JSON.parse(document.getElementById('${DOCS_CONFIG_ID}').textContent);`,
  `  config.dom_id = '#${DOCS_MOUNT_ID}';`,
  '  config.presets = [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset];',
  '  window.ui = SwaggerUIBundle(config);',
  '})();',
].join('\n');

/** How the Swagger UI page is built. */
export const SWAGGER_UI: DocsUiDefinition = Object.freeze({
  ui: 'swagger-ui',
  initScript: Object.freeze({
    source: INIT_SCRIPT,
    hash: 'sha256-YJA0SySoNPPzI6Q1Ga1h/QWpWUYiOX2Lzhj2FAKGkgI=',
  }),
  reservedKeys: Object.freeze(['url', 'urls', 'spec', 'dom_id', 'domNode', 'presets', 'plugins']),
  needs: Object.freeze({ allowInlineStyles: true, allowBlobWorkers: false }),
  data: (specUrl: string, configuration: JsonObject): JsonObject => ({
    ...SWAGGER_UI_DEFAULTS,
    ...configuration,
    url: specUrl,
  }),
});

/** The HTML of a Swagger UI page for the OpenAPI document at `specUrl`. */
export function swaggerUiHtml(options: SwaggerUiHtmlOptions): string {
  return renderDocsPage(SWAGGER_UI, options).html;
}

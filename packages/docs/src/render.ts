/**
 * Renders a docs page for one UI: the HTML skeleton, its integrity-checked assets, the configuration
 * as a JSON data block, and a constant init script whose sha256 is known ahead of time, so the page
 * runs under a CSP without `'unsafe-inline'` for scripts (CSP3 §2.3.1 hash-source) when no nonce is used.
 */
import {
  type DocsAsset,
  type DocsAssets,
  type DocsCrossOrigin,
  type DocsUi,
  DOCS_ASSET_SLOTS,
  assetUrlOrigin,
  resolveCrossOrigin,
  resolveDocsAssets,
} from './assets.ts';
import { assertScriptNonce, type DocsContentSecurityPolicyOptions } from './csp.ts';
import { assertJsonObject, escapeHtml, hasControlCharacter, type JsonObject, jsonForScript } from './html.ts';

/** Options of `scalarHtml`, `swaggerUiHtml`, `redocHtml` and `docsPage`. */
export interface DocsHtmlOptions<A extends DocsAssets = DocsAssets> {
  /** URL of the OpenAPI document: a path (`/openapi.json`) or an http(s) URL. Required. */
  specUrl: string;
  /** Page title, HTML-escaped; default `API reference`. */
  title?: string;
  /** Replacements for the UI's default (jsDelivr) assets, each with its integrity; default none. */
  assets?: A;
  /** `crossorigin` attribute of every script and stylesheet; default `anonymous`. */
  crossOrigin?: DocsCrossOrigin;
  /** Nonce put on the inline init script; default none (the page's CSP then lists the script's hash). */
  scriptNonce?: string;
  /**
   * UI configuration, a JSON object. Swagger UI and Scalar merge it into their init options (the
   * document always comes from `specUrl`); Redoc receives it verbatim as `Redoc.init`'s options.
   * Default none.
   */
  configuration?: JsonObject;
}

/** A rendered page: its HTML and the options of the CSP it runs under. */
export interface DocsPage {
  readonly ui: DocsUi;
  readonly html: string;
  /** `sha256-<base64>` of each inline script of the page. */
  readonly scriptHashes: readonly string[];
  /** The policy to send with the page: `htmlResponse(page.html, page.policy)`. */
  readonly policy: Readonly<DocsContentSecurityPolicyOptions>;
}

/** An inline script, identical on every page of its UI, and its hash for the CSP. */
export interface DocsInlineScript {
  readonly source: string;
  /** `sha256-<base64>` of `source` (a unit test recomputes it). */
  readonly hash: string;
}

/** What differs from one UI to the next. */
export interface DocsUiDefinition {
  readonly ui: DocsUi;
  /** A script that runs before the UI's assets load, if the UI needs one. */
  readonly preludeScript?: DocsInlineScript;
  /** The init script: reads the JSON data block and starts the UI. */
  readonly initScript: DocsInlineScript;
  /** Configuration keys that would replace the document or the mount point, refused. */
  readonly reservedKeys: readonly string[];
  /** The relaxations this UI needs, found by running it in a browser under the policy. */
  readonly needs: { readonly allowInlineStyles: boolean; readonly allowBlobWorkers: boolean };
  /** The JSON data block the init script reads. */
  data(specUrl: string, configuration: JsonObject): JsonObject;
}

/** Id of the element the UI renders into (each UI's init script reads it too). */
export const DOCS_MOUNT_ID = 'charter-docs';
/** Id of the JSON data block holding the spec URL and configuration (each init script reads it). */
export const DOCS_CONFIG_ID = 'charter-docs-config';

/** The option keys of `DocsHtmlOptions`, shared with `mountDocs` which extends them. */
export const DOCS_HTML_OPTION_KEYS: readonly string[] = Object.freeze([
  'specUrl',
  'title',
  'assets',
  'crossOrigin',
  'scriptNonce',
  'configuration',
]);

/** Refused spec URL schemes get a message of their own. */
function schemeOf(url: string): string | undefined {
  for (let i = 0; i < url.length; i++) {
    const char = url[i];
    if (char === ':') return url.slice(0, i).toLowerCase();
    if (char === '/' || char === '?' || char === '#') return undefined;
  }
  return undefined;
}

/**
 * Validates a spec URL and returns the origin the page must be allowed to fetch from (undefined
 * for a same-origin reference). Accepted: a relative reference (`/openapi.json`, `openapi.json`)
 * or an absolute http(s) URL. Refused: any other scheme (`javascript:`, `data:`), control
 * characters, whitespace and backslashes, `//host` (a network-path reference, RFC 3986 §4.2, that
 * would leave the origin) and credentials in the URL.
 */
export function specUrlOrigin(specUrl: unknown, option = 'specUrl'): string | undefined {
  if (typeof specUrl !== 'string' || specUrl === '') {
    throw new TypeError(`${option} is required: the URL of the OpenAPI document, such as /openapi.json`);
  }
  if (hasControlCharacter(specUrl) || specUrl.includes(' ') || specUrl.includes('\\')) {
    throw new TypeError(`${option} must not contain control characters, spaces or backslashes`);
  }
  const scheme = schemeOf(specUrl);
  if (scheme === undefined) {
    if (specUrl.startsWith('//')) {
      throw new TypeError(
        `${option} must be a path or an http(s) URL, not a network-path reference (//host)`,
      );
    }
    return undefined;
  }
  if (scheme !== 'http' && scheme !== 'https') {
    throw new TypeError(`${option} must be a path or an http(s) URL, got a ${scheme}: URL`);
  }
  const parsed = URL.parse(specUrl);
  if (parsed === null) throw new TypeError(`${option} is not a valid URL: ${specUrl}`);
  if (parsed.username !== '' || parsed.password !== '')
    throw new TypeError(`${option} must not carry credentials`);
  return parsed.origin;
}

function assetTag(slot: keyof DocsAssets, asset: DocsAsset, crossOrigin: DocsCrossOrigin): string {
  const attrs = `integrity="${escapeHtml(asset.integrity)}" crossorigin="${crossOrigin}"`;
  return slot === 'stylesheet'
    ? `<link rel="stylesheet" href="${escapeHtml(asset.url)}" ${attrs}>`
    : `<script src="${escapeHtml(asset.url)}" ${attrs}></script>`;
}

/** Validates the options, renders the page and lists what its CSP must allow. */
export function renderDocsPage(definition: DocsUiDefinition, options: DocsHtmlOptions): DocsPage {
  const fn = `${definition.ui} docs page`;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn} options must be an object`);
  for (const key of Object.keys(options)) {
    if (!DOCS_HTML_OPTION_KEYS.includes(key)) throw new TypeError(`${fn} has no option "${key}"`);
  }
  const specOrigin = specUrlOrigin(options.specUrl);
  const title = options.title ?? 'API reference';
  if (typeof title !== 'string') throw new TypeError('title must be a string');
  const assets = resolveDocsAssets(definition.ui, options.assets);
  const crossOrigin = resolveCrossOrigin(options.crossOrigin);
  if (options.scriptNonce !== undefined) assertScriptNonce(options.scriptNonce, 'scriptNonce');
  const configuration = options.configuration ?? {};
  assertJsonObject(configuration, 'configuration');
  for (const key of definition.reservedKeys) {
    if (Object.hasOwn(configuration, key)) {
      throw new TypeError(
        `configuration.${key} is set by the page itself (the document comes from specUrl); remove it`,
      );
    }
  }

  const head: string[] = [];
  const scripts: string[] = [];
  const assetOrigins: string[] = [];
  for (const slot of DOCS_ASSET_SLOTS[definition.ui]) {
    const asset = assets[slot];
    if (asset === undefined) continue;
    (slot === 'stylesheet' ? head : scripts).push(assetTag(slot, asset, crossOrigin));
    const origin = assetUrlOrigin(asset.url, `assets.${slot}.url`);
    if (origin !== undefined && !assetOrigins.includes(origin)) assetOrigins.push(origin);
  }
  const nonce = options.scriptNonce === undefined ? '' : ` nonce="${options.scriptNonce}"`;
  const inline = (script: DocsInlineScript): string => `<script${nonce}>${script.source}</script>`;
  const prelude = definition.preludeScript === undefined ? [] : [inline(definition.preludeScript)];
  const scriptHashes = Object.freeze(
    [definition.preludeScript, definition.initScript].flatMap((script) =>
      script === undefined ? [] : [script.hash],
    ),
  );
  const data = jsonForScript(definition.data(options.specUrl, configuration));
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    // An empty icon: otherwise the browser asks the app for /favicon.ico and logs its 404.
    '<link rel="icon" href="data:,">',
    ...head,
    '</head>',
    '<body>',
    `<div id="${DOCS_MOUNT_ID}"></div>`,
    // A data block (HTML §4.12.1, type not a JavaScript MIME type): never run, so CSP does not govern it.
    `<script type="application/json" id="${DOCS_CONFIG_ID}">${data}</script>`,
    ...prelude,
    ...scripts,
    inline(definition.initScript),
    '</body>',
    '</html>',
    '',
  ].join('\n');

  const policy: DocsContentSecurityPolicyOptions = {
    assetOrigins: Object.freeze(assetOrigins),
    connectOrigins: Object.freeze(specOrigin === undefined ? [] : [specOrigin]),
    ...(options.scriptNonce === undefined ? { scriptHashes } : { scriptNonce: options.scriptNonce }),
    allowInlineStyles: definition.needs.allowInlineStyles,
    allowBlobWorkers: definition.needs.allowBlobWorkers,
  };
  return Object.freeze({
    ui: definition.ui,
    html,
    scriptHashes,
    policy: Object.freeze(policy),
  });
}

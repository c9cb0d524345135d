/** `mountDocs(app, options)`: the GET route answering the docs page of one UI with its CSP. */
import type { Scope } from '@charter/core';
import type { DocsAssets, DocsCrossOrigin, DocsUi } from './assets.ts';
import { assertScriptNonce, assertSerialisedOrigin, docsContentSecurityPolicy } from './csp.ts';
import { docsPage, resolveDocsUi } from './docs-page.ts';
import type { JsonObject } from './html.ts';
import { htmlResponse } from './html-response.ts';
import { DOCS_HTML_OPTION_KEYS, type DocsHtmlOptions, type DocsPage } from './render.ts';

/** Options of `mountDocs`. */
export interface MountDocsOptions {
  /** Path of the page; default `/docs`. */
  path?: string;
  /** Which UI; default `scalar`. */
  ui?: DocsUi;
  /** URL of the OpenAPI document; default `/openapi.json`. An absolute URL's origin joins connect-src. */
  specUrl?: string;
  /** Page title; default `API reference`. */
  title?: string;
  /** Replacements for the UI's default assets (see `DocsAssets`); default the pinned jsDelivr files. */
  assets?: DocsAssets;
  /** `crossorigin` of every asset; default `anonymous`. */
  crossOrigin?: DocsCrossOrigin;
  /**
   * Nonce for the init script: a function called for each request (return a fresh value from
   * `crypto.getRandomValues`), or a fixed string for a proxy that substitutes its own. Default
   * none: the CSP lists the init script's sha256 instead, which needs nothing per request.
   */
  scriptNonce?: string | (() => string);
  /** UI configuration (a JSON object); default none. */
  configuration?: JsonObject;
  /** More origins the page may fetch from, such as an API server for "try it" requests; default none. */
  connectOrigins?: readonly string[];
}

const OPTION_KEYS: readonly string[] = ['path', 'ui', ...DOCS_HTML_OPTION_KEYS, 'connectOrigins'];

/** Validates the `path` option (default `/docs`). */
function resolvePath(value: unknown): string {
  if (value === undefined) return '/docs';
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new TypeError(`mountDocs option "path" must be a path starting with "/", got ${String(value)}`);
  }
  // The page has one fixed URL: a parameter or wildcard would make it answer under many.
  if (value.includes(':') || value.includes('*')) {
    throw new TypeError(`mountDocs option "path" must not contain route parameters, got ${value}`);
  }
  return value;
}

function resolveConnectOrigins(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new TypeError('mountDocs option "connectOrigins" must be an array of origins');
  value.forEach((origin, index) =>
    assertSerialisedOrigin(origin, `mountDocs option "connectOrigins[${index}]"`),
  );
  return Object.freeze([...value]);
}

function withMountPrefix<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof TypeError) throw new TypeError(`mountDocs option ${error.message}`);
    throw error;
  }
}

/**
 * Registers GET `path` (default `/docs`) answering the page of `ui` (default Scalar) with a CSP
 * that lets that UI run and nothing else. The route is left out of the OpenAPI document. Options
 * are validated now: a bad one throws a TypeError naming it.
 *
 * @example
 * mountDocs(app, { ui: 'redoc', title: 'Todos API' }); // GET /docs, reading /openapi.json
 */
export function mountDocs<S extends Scope>(app: S, options: MountDocsOptions = {}): S {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('mountDocs options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) throw new TypeError(`mountDocs has no option "${key}"`);
  }
  const path = resolvePath(options.path);
  const ui = withMountPrefix(() => resolveDocsUi(options.ui));
  const connectOrigins = resolveConnectOrigins(options.connectOrigins);
  const nonceSource = options.scriptNonce;
  if (nonceSource !== undefined && typeof nonceSource !== 'function') {
    withMountPrefix(() => assertScriptNonce(nonceSource, 'scriptNonce'));
  }
  const pageOptions = (scriptNonce: string | undefined): DocsHtmlOptions => ({
    specUrl: options.specUrl ?? '/openapi.json',
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.assets === undefined ? {} : { assets: options.assets }),
    ...(options.crossOrigin === undefined ? {} : { crossOrigin: options.crossOrigin }),
    ...(options.configuration === undefined ? {} : { configuration: options.configuration }),
    ...(scriptNonce === undefined ? {} : { scriptNonce }),
  });
  const policyOf = (page: DocsPage): string =>
    docsContentSecurityPolicy({
      ...page.policy,
      connectOrigins: [...(page.policy.connectOrigins ?? []), ...connectOrigins],
    });

  let handler: () => Response;
  if (typeof nonceSource === 'function') {
    // Render once now with a placeholder nonce, so a bad option still fails at mount time.
    withMountPrefix(() => docsPage(ui, pageOptions('A'.repeat(22))));
    handler = () => {
      const nonce = nonceSource();
      assertScriptNonce(nonce, 'the value returned by mountDocs option "scriptNonce"');
      const page = docsPage(ui, pageOptions(nonce));
      return htmlResponse(page.html, { contentSecurityPolicy: policyOf(page) });
    };
  } else {
    // Nothing varies per request: render the page and its policy once.
    const page = withMountPrefix(() => docsPage(ui, pageOptions(nonceSource)));
    const contentSecurityPolicy = policyOf(page);
    handler = () => htmlResponse(page.html, { contentSecurityPolicy });
  }

  app.route({
    method: 'GET',
    path,
    summary: 'Interactive API documentation',
    responses: { 200: { contentType: 'text/html', description: 'The docs page' } },
    acknowledgeNoResponseBodySchema: true,
    openapi: { exclude: true },
    handler,
  });
  return app;
}

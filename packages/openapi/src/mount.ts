import { type App, InternalError } from '@charter/core';
import { OpenAPIError } from './errors.ts';
import { assertInfo, type GenerateOpenAPIOptions, generateOpenAPI } from './generate.ts';
import type { Info, OpenAPIDocument } from './types.ts';
import { openapiToYAML } from './yaml.ts';

/** Options of the App option `openapi` and of `mountOpenAPI(app, options)`. */
export interface OpenAPIMountOptions extends Partial<GenerateOpenAPIOptions> {
  /** Default: the App options `title` (else `API`), `version` (else `0.0.0`) and `description`. */
  info?: Info;
  /** Path of the JSON document; default `/openapi.json`. */
  path?: string;
  /** Path of the YAML document, or false for none; default `/openapi.yaml`. */
  yamlPath?: string | false;
}

/** The mounted document, generated on first use and again after routes are added. */
export interface MountedOpenAPI {
  readonly path: string;
  readonly yamlPath: string | false;
  /** The current document (throws an OpenAPIError when a route cannot be described). */
  document(): OpenAPIDocument;
}

function assertPath(name: string, path: unknown): asserts path is string {
  if (typeof path !== 'string' || !path.startsWith('/') || path.includes('?') || path.includes('#')) {
    throw new TypeError(`openapi.${name} must be a path starting with "/", got ${JSON.stringify(path)}`);
  }
  // The document has one URL: a parameter or wildcard would serve it under many.
  if (path.includes(':') || path.includes('*')) {
    throw new TypeError(`openapi.${name} must not contain route parameters, got ${JSON.stringify(path)}`);
  }
}

/** The document's `info` from the App's own metadata. */
export function appInfo(app: App): Info {
  const info: Info = { title: app.options.title ?? 'API', version: app.options.version ?? '0.0.0' };
  if (app.options.description !== undefined) info.description = app.options.description;
  return info;
}

/**
 * Serves the app's OpenAPI document: GET `/openapi.json` and GET `/openapi.yaml` (paths configurable).
 * The document is generated on the first request and kept; routes registered later make it stale,
 * so the next request generates it again. The two routes are themselves left out of the document.
 */
export function mountOpenAPI(app: App, options: OpenAPIMountOptions = {}): MountedOpenAPI {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('openapi options must be an object');
  const { path = '/openapi.json', yamlPath = '/openapi.yaml', ...generate } = options;
  assertPath('path', path);
  if (yamlPath !== false) assertPath('yamlPath', yamlPath);
  if (yamlPath === path) throw new TypeError('openapi.path and openapi.yamlPath must differ');
  if (generate.info !== undefined) assertInfo(generate.info);

  // The serialised forms are kept as bytes: a byte body is sent as is (a string would be JSON-encoded again).
  // A failure is kept too, so a broken contract is not regenerated (and logged) on every request.
  type Generated = { routes: number; doc: OpenAPIDocument; json?: Uint8Array; yaml?: Uint8Array };
  let cache: Generated | { routes: number; error: OpenAPIError } | undefined;
  const encoder = new TextEncoder();
  const current = (): Generated => {
    const routes = app.registeredRoutes().length;
    if (cache === undefined || cache.routes !== routes) {
      try {
        cache = { routes, doc: generateOpenAPI(app, { ...generate, info: generate.info ?? appInfo(app) }) };
      } catch (error) {
        if (!(error instanceof OpenAPIError)) throw error;
        app.logger.error('The OpenAPI document cannot be generated', { error });
        cache = { routes, error };
      }
    }
    if ('error' in cache) throw cache.error;
    return cache;
  };
  const serve = <T>(render: (entry: Generated) => T): T => {
    try {
      return render(current());
    } catch (error) {
      if (!(error instanceof OpenAPIError)) throw error;
      throw new InternalError({ detail: error.message });
    }
  };
  const noCache = { 'cache-control': 'no-cache' };

  app.route({
    method: 'GET',
    path,
    summary: "This API's OpenAPI 3.1 document (JSON)",
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
    openapi: { exclude: true },
    handler: () => ({
      status: 200,
      body: serve((entry) => (entry.json ??= encoder.encode(JSON.stringify(entry.doc)))),
      headers: noCache,
    }),
  });
  if (yamlPath !== false) {
    app.route({
      method: 'GET',
      path: yamlPath,
      summary: "This API's OpenAPI 3.1 document (YAML)",
      // RFC 9512 registers application/yaml.
      responses: { 200: { description: 'The OpenAPI document', contentType: 'application/yaml' } },
      openapi: { exclude: true },
      handler: () => ({
        status: 200,
        body: serve((entry) => (entry.yaml ??= encoder.encode(openapiToYAML(entry.doc)))),
        headers: noCache,
      }),
    });
  }
  return { path, yamlPath, document: () => current().doc };
}

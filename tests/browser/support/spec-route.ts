/** Serves an app's OpenAPI document, from `generateOpenAPI`, at GET /openapi.json for the docs UIs. */
import type { App } from '@charter/core';
import { generateOpenAPI } from '@charter/openapi';

/** Registers GET /openapi.json answering the document of `app` (generated on each request). */
export function mountSpecRoute(app: App): void {
  app.route({
    method: 'GET',
    path: '/openapi.json',
    responses: { 200: { contentType: 'application/json' } },
    acknowledgeNoResponseBodySchema: true,
    openapi: { exclude: true },
    handler: () =>
      Response.json(
        generateOpenAPI(app, {
          info: { title: app.options.title ?? 'API', version: app.options.version ?? '0.0.0' },
        }),
      ),
  });
}

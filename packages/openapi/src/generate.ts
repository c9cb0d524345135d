import {
  type AnySchema,
  type App,
  type RegisteredRoute,
  type RouteContract,
  type SecurityScheme,
  toOpenAPISecurityScheme,
} from '@charter/core';
import { OpenAPIError } from './errors.ts';
import {
  assertCallbacks,
  assertOperationShape,
  buildOperation,
  type OperationContext,
  type OperationSource,
  SENT_CONTENT_TYPES,
} from './operation.ts';
import { toOpenAPIPath } from './paths.ts';
import {
  PROBLEM_DETAILS,
  PROBLEM_DETAILS_SCHEMA,
  VALIDATION_PROBLEM_DETAILS,
  VALIDATION_PROBLEM_DETAILS_SCHEMA,
} from './problem.ts';
import { SchemaRegistry } from './schemas.ts';
import type { Extensions, HttpVerb, Info, OpenAPIDocument, PathItem, Server, Tag } from './types.ts';

/** The OpenAPI version of the documents Charter writes. */
export const OPENAPI_VERSION = '3.1.1';

/** A webhook: an operation the API calls on its subscribers, declared like a route without path and handler. */
export type WebhookDefinition = Omit<RouteContract, 'hooks' | 'acknowledgeNoResponseBodySchema'> & {
  method: RegisteredRoute['method'];
};

export interface GenerateOpenAPIOptions {
  /** §4.8.2: `title` and `version` are required. */
  info: Info;
  servers?: readonly Server[];
  /** Default: the App option `securitySchemes`. Routes' `auth.scheme` must name one of them. */
  securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  /** Top-level `webhooks` (OpenAPI 3.1 §4.8.1), by name. */
  webhooks?: Readonly<Record<string, WebhookDefinition>>;
  /** Schemas to list in `components/schemas` under these names and refer to with `$ref` wherever they appear. */
  schemas?: Readonly<Record<string, AnySchema>>;
  /** Descriptions of tags; tags the routes use but this omits are listed by name. */
  tags?: readonly Tag[];
  /** Extra `x-` members at the top level of the document. */
  extensions?: Extensions;
}

export function assertInfo(info: unknown): asserts info is Info {
  if (typeof info !== 'object' || info === null)
    throw new OpenAPIError('info is required: { title, version }');
  const { title, version } = info as Partial<Info>;
  if (typeof title !== 'string' || title === '')
    throw new OpenAPIError('info.title must be a non-empty string');
  if (typeof version !== 'string' || version === '')
    throw new OpenAPIError('info.version must be a non-empty string');
}

function assertServers(servers: readonly Server[]): void {
  servers.forEach((server, index) => {
    if (typeof server?.url !== 'string' || server.url === '') {
      throw new OpenAPIError(`servers[${index}].url must be a non-empty string`);
    }
  });
}

/** The route, as an operation source. */
function routeSource(app: App, route: RegisteredRoute): OperationSource & { template: string } {
  const { template, params } = toOpenAPIPath(route.path);
  const d = route.definition;
  const owner = `Route ${route.method} ${route.path}`;
  assertCallbacks(owner, d.callbacks);
  return {
    template,
    method: route.method,
    owner,
    operationId: route.operationId,
    summary: d.summary,
    description: d.description,
    tags: route.tags,
    deprecated: d.deprecated,
    request: d.request,
    responses: d.responses,
    auth: route.auth,
    meta: d.meta,
    examples: d.examples,
    callbacks: d.callbacks,
    openapi: d.openapi,
    pathParams: params,
    frameworkAnswers: app.frameworkAnswers(route),
  };
}

function webhookSource(name: string, webhook: WebhookDefinition): OperationSource {
  const owner = `Webhook ${name}`;
  assertOperationShape(owner, webhook);
  assertCallbacks(owner, webhook.callbacks);
  return { ...webhook, owner, pathParams: [] };
}

/** Every schema of an operation source, for counting reuse before anything is emitted. */
function* schemasOf(
  source: OperationSource,
  defaultTypes: readonly string[],
): Generator<AnySchema | undefined> {
  const request = source.request ?? {};
  yield request.params;
  yield request.query;
  yield request.headers;
  // A body accepted in several media types appears once per type: it is reused, so it becomes a component.
  const bodyUses = request.body === undefined ? 0 : (request.contentTypes?.length ?? defaultTypes.length);
  for (let i = 0; i < bodyUses; i++) yield request.body;
  for (const spec of Object.values(source.responses)) {
    yield spec.body;
    for (const header of Object.values(spec.headers ?? {})) yield header.schema;
  }
  for (const expressions of Object.values(source.callbacks ?? {})) {
    for (const op of Object.values(expressions))
      yield* schemasOf({ ...op, owner: '', pathParams: [] }, SENT_CONTENT_TYPES);
  }
}

/**
 * The OpenAPI 3.1 document of an app, derived from its route definitions: paths in the router's
 * syntax become templates (`:id` to `{id}`, `*rest` to `{rest}`, marked `x-charter-wildcard`),
 * parameters come from the params/query/headers schemas, request bodies are listed per accepted media
 * type, every declared response with its headers and examples, and the route's auth, callbacks and
 * `meta` (as `x-charter-*`). Routes with `openapi.exclude` are left out. Throws an OpenAPIError that
 * names the route when a schema cannot describe itself.
 */
export function generateOpenAPI(app: App, options: GenerateOpenAPIOptions): OpenAPIDocument {
  if (typeof options !== 'object' || options === null)
    throw new OpenAPIError('generateOpenAPI() takes options');
  assertInfo(options.info);
  if (options.servers !== undefined) assertServers(options.servers);
  const schemes = options.securitySchemes ?? app.options.securitySchemes ?? {};
  const schemas = new SchemaRegistry(options.schemas);
  let problemDetails = false;
  let validationProblem = false;
  const ctx: OperationContext = {
    schemas,
    defaultContentTypes: app.options.allowedContentTypes,
    securitySchemes: new Set(Object.keys(schemes)),
    useProblemDetails: (kind) => {
      problemDetails = true;
      if (kind === 'validation') validationProblem = true;
    },
  };

  const routes = app.registeredRoutes().filter((route) => route.definition.openapi?.exclude !== true);
  const sources = routes.map((route) => routeSource(app, route));
  const webhookSources = Object.entries(options.webhooks ?? {}).map(
    ([name, webhook]) => [name, webhookSource(name, webhook)] as const,
  );
  // The API sends webhooks (like callbacks); the media types it accepts do not apply to them.
  const webhookCtx: OperationContext = { ...ctx, defaultContentTypes: SENT_CONTENT_TYPES };
  for (const source of sources) {
    for (const schema of schemasOf(source, ctx.defaultContentTypes)) schemas.countUse(schema);
  }
  for (const [, source] of webhookSources) {
    for (const schema of schemasOf(source, webhookCtx.defaultContentTypes)) schemas.countUse(schema);
  }

  const paths: Record<string, PathItem> = {};
  // §4.8.8: templated paths that differ only in parameter names are ambiguous and not allowed.
  const shapes = new Map<string, string>();
  const tagsUsed: string[] = [];
  for (const source of sources) {
    const shape = source.template.replace(/\{[^}/]*\}/g, '{}');
    const seen = shapes.get(shape);
    if (seen !== undefined && seen !== source.template) {
      throw new OpenAPIError(
        `${source.owner}: the path ${source.template} differs from ${seen} only in parameter names; ` +
          'OpenAPI requires one name per position, so use the same parameter names on both routes',
      );
    }
    shapes.set(shape, source.template);
    const item = (paths[source.template] ??= {});
    const verb = source.method.toLowerCase() as HttpVerb;
    if (item[verb] !== undefined) {
      throw new OpenAPIError(
        `${source.owner}: another ${source.method} route has the same OpenAPI path ${source.template} ` +
          '(a parameter and a wildcard in the same place); rename one of them',
      );
    }
    item[verb] = buildOperation(source, ctx);
    for (const tag of source.tags ?? []) if (!tagsUsed.includes(tag)) tagsUsed.push(tag);
  }

  // Key order as §4.8.1 lists the fields: servers before paths.
  const doc = { openapi: OPENAPI_VERSION, info: { ...options.info } } as OpenAPIDocument;
  if (options.servers !== undefined && options.servers.length > 0) {
    doc.servers = options.servers.map((s) => ({ ...s }));
  }
  doc.paths = paths;
  if (webhookSources.length > 0) {
    doc.webhooks = {};
    // §4.8.10: an operationId is unique among all the operations of the document, webhooks included.
    const operationIds = new Map(
      sources.flatMap((s) => (s.operationId === undefined ? [] : [[s.operationId, s.owner] as const])),
    );
    for (const [name, source] of webhookSources) {
      const id = source.operationId;
      if (id !== undefined) {
        const user = operationIds.get(id);
        if (user !== undefined) {
          throw new OpenAPIError(
            `${source.owner}: operationId "${id}" is already used by ${user}; ` +
              'OpenAPI requires every operationId of the document to be unique',
          );
        }
        operationIds.set(id, source.owner);
      }
      doc.webhooks[name] = { [source.method.toLowerCase()]: buildOperation(source, webhookCtx) };
      for (const tag of source.tags ?? []) if (!tagsUsed.includes(tag)) tagsUsed.push(tag);
    }
  }
  const components: NonNullable<OpenAPIDocument['components']> = {};
  if (problemDetails && schemas.components[PROBLEM_DETAILS] === undefined) {
    schemas.components[PROBLEM_DETAILS] = PROBLEM_DETAILS_SCHEMA;
  }
  if (validationProblem && schemas.components[VALIDATION_PROBLEM_DETAILS] === undefined) {
    schemas.components[VALIDATION_PROBLEM_DETAILS] = VALIDATION_PROBLEM_DETAILS_SCHEMA;
  }
  if (Object.keys(schemas.components).length > 0) components.schemas = schemas.components;
  if (Object.keys(schemes).length > 0) {
    components.securitySchemes = {};
    for (const [name, scheme] of Object.entries(schemes)) {
      try {
        components.securitySchemes[name] = toOpenAPISecurityScheme(scheme);
      } catch (error) {
        throw new OpenAPIError(`securitySchemes.${name}: ${(error as Error).message}`);
      }
    }
  }
  if (Object.keys(components).length > 0) doc.components = components;
  const described = new Map((options.tags ?? []).map((tag) => [tag.name, tag]));
  const tags: Tag[] = [...(options.tags ?? []).map((t) => ({ ...t }))];
  for (const name of tagsUsed) if (!described.has(name)) tags.push({ name });
  if (tags.length > 0) doc.tags = tags;
  for (const [key, value] of Object.entries(options.extensions ?? {})) {
    if (!key.startsWith('x-')) throw new OpenAPIError(`extensions: "${key}" must start with "x-"`);
    doc[key as `x-${string}`] = value;
  }
  return doc;
}

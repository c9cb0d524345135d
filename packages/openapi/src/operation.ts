import {
  assertCallbacks as assertCoreCallbacks,
  assertSentOperation,
  type AnySchema,
  type AuthSpec,
  type CallbackMap,
  type FrameworkAnswer,
  type HttpMethod,
  isExampleObject,
  type JsonSchema,
  type RequestSpec,
  type ResponseSpec,
  type ResponsesSpec,
  type RouteExample,
  type RouteMeta,
  type RouteOpenAPIOptions,
} from '@charter/core';
import { OpenAPIError } from './errors.ts';
import { pascalCase } from './json-walk.ts';
import type { PathParam } from './paths.ts';
import { PROBLEM_DETAILS, VALIDATION_PROBLEM_DETAILS } from './problem.ts';
import { scalarMedia } from './scalar.ts';
import type { SchemaRegistry, SchemaSite } from './schemas.ts';
import type {
  Callback,
  Example,
  Header,
  MediaType,
  Operation,
  Parameter,
  RequestBody,
  Response,
  SecurityRequirement,
} from './types.ts';

/** What an operation is built from: a route, a webhook or a callback, all declared alike. */
export interface OperationSource {
  readonly method: HttpMethod;
  /** `Route GET /users/:id`, `Webhook todoCreated`: the start of every error message. */
  readonly owner: string;
  readonly operationId?: string | undefined;
  readonly summary?: string | undefined;
  readonly description?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly deprecated?: boolean | undefined;
  readonly request?: RequestSpec | undefined;
  readonly responses: ResponsesSpec;
  readonly auth?: AuthSpec | undefined;
  readonly meta?: RouteMeta | undefined;
  readonly examples?: readonly RouteExample[] | undefined;
  readonly callbacks?: CallbackMap | undefined;
  readonly openapi?: RouteOpenAPIOptions | undefined;
  /** Path parameters of the route path (none for webhooks and callbacks). */
  readonly pathParams: readonly PathParam[];
  /** What the framework answers on the route by itself (`App.frameworkAnswers`); none for webhooks. */
  readonly frameworkAnswers?: readonly FrameworkAnswer[] | undefined;
}

/** What the builder needs from the document being generated. */
export interface OperationContext {
  readonly schemas: SchemaRegistry;
  /** Media types a body is accepted in when the route does not list its own. */
  readonly defaultContentTypes: readonly string[];
  /** Declared security scheme names. */
  readonly securitySchemes: ReadonlySet<string>;
  /** Called when a response refers to a problem-document component (the validation one, or the plain one). */
  useProblemDetails(kind?: 'validation'): void;
}

// OpenAPI 3.1 §4.8.12.1: header parameters named Accept, Content-Type or Authorization are ignored;
// they are described by the media types and the security requirement instead.
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const META_KEY = /^[A-Za-z0-9._-]+$/;

/** Media types of the bodies the API sends itself (callbacks, webhooks): JSON, whatever types it accepts. */
export const SENT_CONTENT_TYPES: readonly string[] = ['application/json'];

/** The OpenAPI Operation Object of a route, webhook or callback. */
export function buildOperation(source: OperationSource, ctx: OperationContext): Operation {
  const operation = {} as Operation;
  if (source.operationId !== undefined) operation.operationId = source.operationId;
  if (source.summary !== undefined) operation.summary = source.summary;
  if (source.description !== undefined) operation.description = source.description;
  if (source.tags !== undefined && source.tags.length > 0) operation.tags = [...source.tags];
  if (source.deprecated === true) operation.deprecated = true;
  // §4.8.10: an empty list says the operation needs no authentication; the contract is the whole truth,
  // so a route without `auth` is declared open rather than left to a top-level default.
  // An optional auth is the scheme or nothing: the empty requirement (§4.8.30) admits anonymous callers.
  operation.security =
    source.auth === undefined
      ? []
      : source.auth.optional === true
        ? [{}, securityRequirement(source, source.auth, ctx)]
        : [securityRequirement(source, source.auth, ctx)];
  const parameters = buildParameters(source, ctx);
  if (parameters.length > 0) operation.parameters = parameters;
  const body = source.request?.body;
  // A route that reads its own body (no schema for the pipeline) may still describe it with the
  // escape hatch `openapi.jsonSchema.body`.
  if (body !== undefined || source.openapi?.jsonSchema?.body !== undefined) {
    operation.requestBody = buildRequestBody(source, body as AnySchema, ctx);
  }
  operation.responses = buildResponses(source, ctx);
  if (source.callbacks !== undefined) operation.callbacks = buildCallbacks(source, ctx);
  for (const [key, value] of Object.entries(source.meta ?? {})) {
    if (!META_KEY.test(key)) {
      throw new OpenAPIError(
        `${source.owner}: meta key "${key}" must match ^[A-Za-z0-9._-]+$ (it becomes x-charter-${key})`,
      );
    }
    if (value !== undefined) operation[`x-charter-${key}`] = value;
  }
  return operation;
}

function securityRequirement(
  source: OperationSource,
  auth: AuthSpec,
  ctx: OperationContext,
): SecurityRequirement {
  if (!ctx.securitySchemes.has(auth.scheme)) {
    throw new OpenAPIError(
      `${source.owner}: auth names the security scheme "${auth.scheme}", which is not declared; ` +
        'declare it in the App option securitySchemes or the generator option securitySchemes',
    );
  }
  return { [auth.scheme]: [...(auth.scopes ?? [])] };
}

/** A name for a schema that turns out to be reused: `CreateTodoBody`, `GetTodoResponse200`. */
function suggestedName(source: OperationSource, part: string): string {
  const base = source.operationId ?? `${source.method.toLowerCase()} ${source.owner.split(' ').pop() ?? ''}`;
  return pascalCase(`${base} ${part}`) || 'Schema';
}

function site(source: OperationSource, part: string, name: string): SchemaSite {
  return { owner: source.owner, part, suggestedName: suggestedName(source, name) };
}

/** The properties of an object schema, as parameters are listed from them (OpenAPI 3.1 §4.8.12). */
function objectProperties(
  json: JsonSchema,
  source: OperationSource,
  part: string,
): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties = json.properties;
  if (json.type !== 'object' || typeof properties !== 'object' || properties === null) {
    throw new OpenAPIError(
      `${source.owner}: ${part}: the schema must describe an object with named properties, one per parameter`,
    );
  }
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return { properties: properties as Record<string, JsonSchema>, required: new Set(required) };
}

function parameter(
  name: string,
  location: Parameter['in'],
  schema: JsonSchema,
  required: boolean,
): Parameter {
  const out: Parameter = { name, in: location };
  if (typeof schema.description === 'string') out.description = schema.description;
  if (required) out.required = true;
  if (schema.deprecated === true) out.deprecated = true;
  out.schema = schema;
  return out;
}

function buildParameters(source: OperationSource, ctx: OperationContext): Parameter[] {
  const out: Parameter[] = [];
  const request = source.request ?? {};
  const overrides = source.openapi?.jsonSchema ?? {};
  const inline = (schema: AnySchema | undefined, override: JsonSchema | undefined, part: string) =>
    schema === undefined && override === undefined
      ? undefined
      : ctx.schemas.schemaFor(schema as AnySchema, 'input', site(source, part, part), override, true);

  // §4.8.12.2: every path parameter is required; a wildcard holds the rest of the path, slashes included.
  const paramsJson = inline(request.params, overrides.params, 'path parameters');
  const pathProps =
    paramsJson === undefined ? undefined : objectProperties(paramsJson, source, 'path parameters');
  for (const param of source.pathParams) {
    const schema = pathProps?.properties[param.name] ?? { type: 'string' };
    const p = parameter(param.name, 'path', schema, true);
    if (param.wildcard) {
      p.description ??= 'The rest of the path; may contain "/".';
      p['x-charter-wildcard'] = true;
    }
    out.push(p);
  }
  const queryJson = inline(request.query, overrides.query, 'query');
  if (queryJson !== undefined) {
    const { properties, required } = objectProperties(queryJson, source, 'query');
    for (const [name, schema] of Object.entries(properties)) {
      out.push(parameter(name, 'query', schema, required.has(name)));
    }
  }
  const headersJson = inline(request.headers, overrides.headers, 'headers');
  if (headersJson !== undefined) {
    const { properties, required } = objectProperties(headersJson, source, 'headers');
    for (const [name, schema] of Object.entries(properties)) {
      if (IGNORED_HEADERS.has(name.toLowerCase())) continue;
      out.push(parameter(name, 'header', schema, required.has(name)));
    }
  }
  return out;
}

/** An entry of `ResponseSpec.examples` as an Example Object (a bare value is wrapped in `{ value }`). */
function exampleObject(entry: unknown): Example {
  return isExampleObject(entry) ? { ...entry } : { value: entry };
}

function exampleName(example: RouteExample, index: number): string {
  return example.name ?? `example${index + 1}`;
}

function namedExample(example: RouteExample, value: unknown): Example {
  return example.summary === undefined ? { value } : { summary: example.summary, value };
}

function buildRequestBody(source: OperationSource, body: AnySchema, ctx: OperationContext): RequestBody {
  const schema = ctx.schemas.schemaFor(
    body,
    'input',
    site(source, 'request body', 'body'),
    source.openapi?.jsonSchema?.body,
  );
  const examples: Record<string, Example> = {};
  source.examples?.forEach((example, index) => {
    if (example.request?.body !== undefined)
      examples[exampleName(example, index)] = namedExample(example, example.request.body);
  });
  const content: Record<string, MediaType> = {};
  for (const type of source.request?.contentTypes ?? ctx.defaultContentTypes) {
    const media: MediaType = { schema };
    if (Object.keys(examples).length > 0) media.examples = examples;
    content[type] = media;
  }
  return { required: true, content };
}

function buildResponses(source: OperationSource, ctx: OperationContext): Record<string, Response> {
  const out: Record<string, Response> = {};
  const specs = source.responses as Record<string, ResponseSpec>;
  const statuses = Object.keys(specs)
    .map(Number)
    .sort((a, b) => a - b);
  for (const status of statuses) {
    const spec = specs[status] as ResponseSpec;
    const response: Response = { description: spec.description ?? `HTTP ${status} response` };
    const headers = buildHeaders(source, status, spec, ctx);
    if (headers !== undefined) response.headers = headers;
    const media = responseMedia(source, status, spec, ctx);
    if (media !== undefined) {
      const examples: Record<string, Example> = {};
      for (const [name, entry] of Object.entries(spec.examples ?? {})) examples[name] = exampleObject(entry);
      source.examples?.forEach((example, index) => {
        if (example.response.status === status && example.response.body !== undefined) {
          examples[exampleName(example, index)] = namedExample(example, example.response.body);
        }
      });
      response.content = {};
      for (const type of media.types) {
        const entry: MediaType = { ...media.content };
        // Under the scalar rule, a string example is what text/plain carries, any other what JSON does.
        const fitting = media.byKind ? examplesSentAs(examples, type === TEXT_TYPE) : examples;
        if (Object.keys(fitting).length > 0) entry.examples = fitting;
        response.content[type] = entry;
      }
    }
    addAlsoSentAs(response, source, status, spec, ctx);
    out[String(status)] = response;
  }
  for (const answer of source.frameworkAnswers ?? []) addFrameworkAnswer(out, answer, ctx);
  return sortedByStatus(out);
}

const PROBLEM_TYPE = 'application/problem+json';

/** The media types a status also goes out in (`ResponseSpec.alsoSentAs`), beside its declared one. */
function addAlsoSentAs(
  response: Response,
  source: OperationSource,
  status: number,
  spec: ResponseSpec,
  ctx: OperationContext,
): void {
  for (const [type, other] of Object.entries(spec.alsoSentAs ?? {})) {
    const content = (response.content ??= {});
    if (content[type] !== undefined) continue;
    if (other.schema !== undefined) {
      const part = `response ${status} body (${type})`;
      content[type] = {
        schema: ctx.schemas.schemaFor(
          other.schema,
          'output',
          site(source, part, `response ${status} ${type}`),
        ),
      };
    } else if (type === PROBLEM_TYPE) {
      ctx.useProblemDetails();
      content[type] = { schema: { $ref: `#/components/schemas/${PROBLEM_DETAILS}` } };
    } else {
      content[type] = type.startsWith('text/') ? { schema: { type: 'string' } } : {};
    }
  }
}

/**
 * Lists an answer the framework gives by itself. A status the route declares keeps its description
 * and content; the problem media type and the answer's headers are added where it lacks them, since
 * the framework may still send its own problem document under that status.
 */
function addFrameworkAnswer(
  out: Record<string, Response>,
  answer: FrameworkAnswer,
  ctx: OperationContext,
): void {
  const key = String(answer.status);
  const response = (out[key] ??= { description: answer.description });
  const content = (response.content ??= {});
  if (content[PROBLEM_TYPE] === undefined) {
    const validation = answer.problem === 'validation';
    ctx.useProblemDetails(validation ? 'validation' : undefined);
    const name = validation ? VALIDATION_PROBLEM_DETAILS : PROBLEM_DETAILS;
    content[PROBLEM_TYPE] = { schema: { $ref: `#/components/schemas/${name}` } };
  }
  for (const [name, header] of Object.entries(answer.headers ?? {})) {
    const headers = (response.headers ??= {});
    // Header names are case-insensitive (RFC 9110 §5.1): a declared one, in any case, wins.
    if (Object.keys(headers).some((declared) => declared.toLowerCase() === name.toLowerCase())) continue;
    const h: Header = {
      description: header.description,
      schema: structuredClone(header.schema) as JsonSchema,
    };
    if (header.required === true) h.required = true;
    headers[name] = h;
  }
}

function sortedByStatus(responses: Record<string, Response>): Record<string, Response> {
  const out: Record<string, Response> = {};
  for (const key of Object.keys(responses).sort((a, b) => Number(a) - Number(b))) {
    out[key] = responses[key] as Response;
  }
  return out;
}

/** The media type and schema of a response body, or undefined for a response without one. */
function responseMedia(
  source: OperationSource,
  status: number,
  spec: ResponseSpec,
  ctx: OperationContext,
): { types: readonly string[]; content: MediaType; byKind?: boolean } | undefined {
  const override = source.openapi?.jsonSchema?.responses?.[status];
  if (spec.body !== undefined || override !== undefined) {
    const schema = ctx.schemas.schemaFor(
      spec.body as AnySchema,
      'output',
      site(source, `response ${status} body`, `response ${status}`),
      override,
    );
    if (spec.contentType !== undefined) return { types: [spec.contentType], content: { schema } };
    // Without a declared type, a string goes out as text/plain and anything else as JSON (scalar.ts):
    // the document lists the media types this schema's values are sent in, each with the schema.
    const admits = scalarMedia(schema, ctx.schemas.components);
    const types = [...(admits.json ? [JSON_TYPE] : []), ...(admits.text ? [TEXT_TYPE] : [])];
    return { types: types.length === 0 ? [JSON_TYPE] : types, content: { schema }, byKind: true };
  }
  if (spec.contentType !== undefined) {
    const textual = spec.contentType.startsWith('text/') || !spec.contentType.includes('json');
    return { types: [spec.contentType], content: textual ? { schema: { type: 'string' } } : {} };
  }
  // RFC 9457: a declared error status without a schema is what Charter's errors send, a problem document.
  if (status >= 400) {
    ctx.useProblemDetails();
    return {
      types: [PROBLEM_TYPE],
      content: { schema: { $ref: `#/components/schemas/${PROBLEM_DETAILS}` } },
    };
  }
  return undefined;
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain';

function examplesSentAs(examples: Record<string, Example>, text: boolean): Record<string, Example> {
  const out: Record<string, Example> = {};
  for (const [name, example] of Object.entries(examples)) {
    if (!Object.hasOwn(example, 'value') || (typeof example.value === 'string') === text) out[name] = example;
  }
  return out;
}

function buildHeaders(
  source: OperationSource,
  status: number,
  spec: ResponseSpec,
  ctx: OperationContext,
): Record<string, Header> | undefined {
  if (spec.headers === undefined) return undefined;
  const out: Record<string, Header> = {};
  for (const [name, header] of Object.entries(spec.headers)) {
    const h: Header = {};
    if (header.description !== undefined) h.description = header.description;
    if (header.required === true) h.required = true;
    h.schema =
      header.schema === undefined
        ? { type: 'string' }
        : ctx.schemas.schemaFor(
            header.schema,
            'output',
            site(source, `response ${status} header ${name}`, `${name} header`),
          );
    out[name] = h;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Runs one of the core's shape checks, reporting a failure as an OpenAPIError with the same message. */
function asOpenAPIError(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof TypeError) throw new OpenAPIError(error.message);
    throw error;
  }
}

/** Checks an operation the API sends (a webhook, or a callback) before anything reads it. */
export function assertOperationShape(owner: string, op: unknown): void {
  asOpenAPIError(() => assertSentOperation(owner, op));
}

/**
 * Checks a `callbacks` map before anything reads it. Routes' callbacks were checked at registration;
 * webhooks are never registered, so their callbacks are checked here.
 */
export function assertCallbacks(owner: string, callbacks: CallbackMap | undefined): void {
  asOpenAPIError(() => assertCoreCallbacks(owner, callbacks));
}

function buildCallbacks(source: OperationSource, ctx: OperationContext): Record<string, Callback> {
  const out: Record<string, Callback> = {};
  // The API sends callbacks; the app's accepted request types do not apply to them.
  const sent: OperationContext = { ...ctx, defaultContentTypes: SENT_CONTENT_TYPES };
  for (const [name, expressions] of Object.entries(source.callbacks ?? {})) {
    const callback: Callback = {};
    for (const [expression, op] of Object.entries(expressions)) {
      const verb = op.method.toLowerCase() as Lowercase<HttpMethod>;
      callback[expression] = {
        [verb]: buildOperation(
          {
            method: op.method,
            owner: `${source.owner} callback ${name}`,
            summary: op.summary,
            description: op.description,
            request: op.request,
            responses: op.responses,
            pathParams: [],
          },
          sent,
        ),
      };
    }
    out[name] = callback;
  }
  return out;
}

import type { WireHeaders } from './planned-response.ts';
import type { ResolvedAppOptions } from '../app/options.ts';
import { type AnySchema, type CoercionPlan, isStandardSchema, planCoercion } from '../schema/index.ts';
import type { IssueLocation } from '../errors/index.ts';
import {
  type AnyRouteDefinition,
  type AuthSpec,
  type HookTraits,
  type HttpMethod,
  type Hooks,
  type ResponseSpec,
  type RouteInfo,
} from '../types/index.ts';
import type { BodyReadOptions } from './body.ts';
import { type CrossOriginCheck, crossOriginCheck } from './cross-origin.ts';
import { layerTraits, type PhaseTable, phaseTable } from './hook-layers.ts';
import { mockHandler } from './mock-handler.ts';
import { responseInits, responsePlan } from './respond.ts';

/** How one request part (params, query, headers) is validated, decided at registration. */
export interface PartPlan {
  readonly location: IssueLocation;
  readonly schema: AnySchema;
  /** Conversions from text, from the schema's JSON Schema; undefined means coerce from issues. */
  readonly coercion: CoercionPlan | undefined;
}

/** How one declared status is answered. */
export interface ResponsePlan {
  readonly status: number;
  readonly schema: AnySchema | undefined;
  readonly contentType: string | undefined;
  /** A string body is JSON-encoded (the declared content type is JSON); otherwise it is sent as is. */
  readonly stringAsJson: boolean;
  /**
   * Header sets of the common responses, built once: the content type plus the App's security
   * headers, so a response is born complete and step 8 has nothing to add.
   */
  readonly headersFor: ResponseHeaderSets;
  /**
   * `{ status, headers }` of each header set, for `new Response(payload, init)`: made once, because
   * Bun's Response constructor reads a reused init noticeably faster than a fresh object literal.
   */
  readonly initFor: {
    readonly empty: ResponseInit;
    readonly json: ResponseInit;
    readonly text: ResponseInit;
  };
}

/**
 * Prebuilt header sets for the three shapes `respond` builds without extra headers, each as `Headers`
 * (a Response copies one several times faster than it reads a plain object of the same fields, which
 * matters with a dozen security headers) and as flat lines for adapters that write planned answers
 * (planned-response.ts). Never mutated after building.
 */
export interface ResponseHeaderSets {
  /** No body: the security headers only (no lines when there are none). */
  readonly empty: WireHeaders;
  /** A JSON body, or any body with a declared content type (which it carries instead). */
  readonly json: WireHeaders;
  /** A text body with no declared content type. */
  readonly text: WireHeaders;
}

/**
 * A route with every per-request decision already made: which parts to validate, whether to read
 * a body, which hooks run in each phase. The pipeline only follows this plan.
 */
export interface CompiledRoute {
  readonly definition: AnyRouteDefinition;
  readonly method: HttpMethod;
  readonly path: string;
  readonly info: RouteInfo;
  /** Every layer, composed: constructor, app.use, group/plugin scopes, route. */
  readonly hooks: PhaseTable;
  /** onRequest hooks of the scoped layers (the global ones ran before routing). */
  readonly scopedOnRequest: PhaseTable['onRequest'];
  readonly params: PartPlan | undefined;
  readonly query: PartPlan | undefined;
  readonly headers: PartPlan | undefined;
  /**
   * `params` when it is the only text part and its coercion is planned (the common route with a
   * path parameter): step 4a then reads the valid value straight off the schema's result.
   */
  readonly paramsOnly: PartPlan | undefined;
  readonly body: AnySchema | undefined;
  readonly bodyLimitBytes: number;
  /** Limits and media types (lower case) for reading the body, fixed at registration. */
  readonly bodyRead: BodyReadOptions;
  readonly responses: ReadonlyMap<number, ResponsePlan>;
  readonly declaredStatuses: string;
  readonly validateResponses: boolean;
  readonly acknowledgeRawResponse: boolean;
  /**
   * No hook in the steps the route runs itself (scoped onRequest, preBody, beforeHandle,
   * afterHandle): the route runs them as plain calls, and makes no promise of its own beyond the
   * body read when its code is sync. Global onRequest and the onError/onSend/onResponse hooks run in dispatch either way.
   */
  readonly direct: boolean;
  /** The traits of every hook layer of the route, outermost first (for the boot guards). */
  readonly traits: readonly HookTraits[];
  /** The cross-origin guard, when the route's method can change state and the guard is on. */
  readonly crossOrigin: CrossOriginCheck | undefined;
  readonly decorations: object;
  readonly handler: AnyRouteDefinition['handler'];
}

export interface CompileInput {
  definition: AnyRouteDefinition;
  /** Full path, group and plugin prefixes included. */
  path: string;
  operationId: string | undefined;
  /** The effective auth declaration (route, else group or plugin). */
  auth: AuthSpec | undefined;
  /** Global layers (constructor hooks, then root app.use). */
  globalLayers: readonly Hooks[];
  /** Scope and route layers, outermost first. */
  scopedLayers: readonly Hooks[];
  decorations: object;
  options: ResolvedAppOptions;
}

function schemaOf(value: unknown, where: string): AnySchema | undefined {
  if (value === undefined) return undefined;
  if (!isStandardSchema(value)) {
    throw new TypeError(
      `${where} must be a Standard Schema (arktype, zod, valibot, or typebox(...) for TypeBox); got ${typeof value}`,
    );
  }
  return value;
}

/** Marks a coercion plan not made yet (`undefined` is a plan: no JSON Schema, coerce from issues). */
const UNPLANNED: unique symbol = Symbol('unplanned');

/**
 * A part's plan whose coercion is planned when a request first needs it: planning converts the
 * schema to JSON Schema (zod's converter alone takes milliseconds), which registration would pay for
 * every route before the first request, though most routes are never called early (issue 18: the
 * benchmark app spent more on its params schema's conversion than on the rest of its routes).
 * `toJsonSchema` never throws, and a schema does not change after registration, so planning later
 * gives the same plan. One class, so every plan has the same shape for the engine.
 */
class LazyPartPlan implements PartPlan {
  readonly location: IssueLocation;
  readonly schema: AnySchema;
  #coercion: CoercionPlan | undefined | typeof UNPLANNED = UNPLANNED;

  constructor(location: IssueLocation, schema: AnySchema) {
    this.location = location;
    this.schema = schema;
  }

  get coercion(): CoercionPlan | undefined {
    const planned = this.#coercion;
    if (planned !== UNPLANNED) return planned;
    const plan = planCoercion(this.schema);
    this.#coercion = plan;
    return plan;
  }
}

function partPlan(location: IssueLocation, schema: AnySchema | undefined): PartPlan | undefined {
  return schema === undefined ? undefined : new LazyPartPlan(location, schema);
}

/**
 * The schema-free part of each response plan, per App (keyed by its security header list, which the
 * App resolves once): the header sets per declared content type, whatever the status, and the plan
 * per status and content type. Every route of an App answers on the same header sets, and building
 * them (a `Headers` of a dozen fields, three times, frozen line lists) was most of the cost of
 * compiling a route (issue 18: the compiled site registers 16 routes before its first page). The
 * sets are never mutated (a Response copies them), so sharing is safe.
 */
interface SharedPlans {
  /** A plan per content type (the first status asked for), for its header sets. */
  readonly byType: Map<string | undefined, ResponsePlan>;
  /** The plan per status and content type, without schema. */
  readonly byStatus: Map<string, ResponsePlan>;
}

const SHARED_PLANS = new WeakMap<ReadonlyArray<readonly [string, string]>, SharedPlans>();

function sharedResponsePlan(
  status: number,
  schema: AnySchema | undefined,
  contentType: string | undefined,
  security: ReadonlyArray<readonly [string, string]>,
): ResponsePlan {
  let plans = SHARED_PLANS.get(security);
  if (plans === undefined) {
    plans = { byType: new Map(), byStatus: new Map() };
    SHARED_PLANS.set(security, plans);
  }
  const key = contentType === undefined ? String(status) : `${status} ${contentType}`;
  let shared = plans.byStatus.get(key);
  if (shared === undefined) {
    const ofType = plans.byType.get(contentType);
    if (ofType === undefined) {
      shared = responsePlan(status, undefined, contentType, security);
      plans.byType.set(contentType, shared);
    } else {
      // Another status on the same sets: only the inits (which carry the status) are new.
      const sets = ofType.headersFor;
      shared = Object.freeze({
        status,
        schema: undefined,
        contentType,
        stringAsJson: ofType.stringAsJson,
        headersFor: sets,
        initFor: responseInits(status, sets),
      });
    }
    plans.byStatus.set(key, shared);
  }
  if (schema === undefined) return shared;
  // The members in responsePlan's order, so every plan has the same shape for the engine.
  return Object.freeze({
    status: shared.status,
    schema,
    contentType: shared.contentType,
    stringAsJson: shared.stringAsJson,
    headersFor: shared.headersFor,
    initFor: shared.initFor,
  });
}

/**
 * Everything `compileRoute` would refuse in a route, refused now with the same error: what is not a
 * Standard Schema, a response content type that is no header value, request content types that are
 * not strings. The registry checks this at registration and compiles the route when a request first
 * needs it (issue 18, start-up: an App's routes were all compiled before its first request, most of
 * them never called early), so a bad route still fails where it is declared.
 */
export function checkRoute(input: Pick<CompileInput, 'definition' | 'path' | 'options'>): void {
  const { definition, path, options } = input;
  const where = `Route ${definition.method} ${path}`;
  const request = definition.request ?? {};
  for (const [key, spec] of Object.entries(
    definition.responses as Record<string, ResponseSpec | undefined>,
  )) {
    schemaOf(spec?.body, `${where}: responses[${key}].body`);
    // The field compiling puts in the header sets (responsePlan): one that is no header value throws
    // here as it would there, without building the sets of a route that may never be called.
    if (spec?.contentType !== undefined) new Headers({ 'content-type': spec.contentType });
  }
  acceptedMediaTypes(request, options);
  schemaOf(request.body, `${where}: request.body`);
  schemaOf(request.params, `${where}: request.params`);
  schemaOf(request.query, `${where}: request.query`);
  schemaOf(request.headers, `${where}: request.headers`);
}

/**
 * The media types a route's body may have, lower-cased for comparison (RFC 9110 §8.3.1: media types
 * are case-insensitive): the route's own list, else the App's. A list holding a non-string throws.
 */
function acceptedMediaTypes(
  request: NonNullable<CompileInput['definition']['request']>,
  options: CompileInput['options'],
): readonly string[] {
  return (request.contentTypes ?? options.allowedContentTypes).map((t: string) => t.toLowerCase());
}

export function compileRoute(input: CompileInput): CompiledRoute {
  const { definition, path, options } = input;
  const where = `Route ${definition.method} ${path}`;
  const request = definition.request ?? {};
  const security = options.security;
  const responses = new Map<number, ResponsePlan>();
  for (const [key, spec] of Object.entries(
    definition.responses as Record<string, ResponseSpec | undefined>,
  )) {
    const status = Number(key);
    const schema = schemaOf(spec?.body, `${where}: responses[${key}].body`);
    responses.set(status, sharedResponsePlan(status, schema, spec?.contentType, security.responseHeaders));
  }
  const layers = [...input.globalLayers, ...input.scopedLayers];
  const traits = layerTraits(layers);
  const lowerTypes = acceptedMediaTypes(request, options);
  const hooks = phaseTable(layers);
  const scopedOnRequest = phaseTable(input.scopedLayers).onRequest;
  const body = schemaOf(request.body, `${where}: request.body`);
  const params = partPlan('params', schemaOf(request.params, `${where}: request.params`));
  const query = partPlan('query', schemaOf(request.query, `${where}: request.query`));
  const headers = partPlan('headers', schemaOf(request.headers, `${where}: request.headers`));
  return Object.freeze({
    definition,
    method: definition.method,
    path,
    info: Object.freeze({
      method: definition.method,
      path,
      operationId: input.operationId,
      auth: input.auth,
      production: input.options.production,
    }),
    hooks,
    scopedOnRequest,
    params,
    query,
    headers,
    paramsOnly:
      query === undefined && headers === undefined && params?.coercion !== undefined ? params : undefined,
    body,
    bodyRead: Object.freeze({
      limit: options.bodyLimitBytes,
      allowed: lowerTypes,
      multipart: options.multipart,
    }),
    bodyLimitBytes: options.bodyLimitBytes,
    responses,
    declaredStatuses: [...responses.keys()].join(', '),
    validateResponses: options.validateResponses,
    acknowledgeRawResponse:
      definition.acknowledgeNoResponseBodySchema === true || traits.some((t) => t.replaysResponses === true),
    direct:
      scopedOnRequest === undefined &&
      hooks.preBody === undefined &&
      hooks.beforeHandle === undefined &&
      hooks.afterHandle === undefined,
    traits,
    crossOrigin: crossOriginCheck(definition.method, security.corsCrossOriginGuard, traits),
    decorations: input.decorations,
    handler: security.mockMode ? mockHandler(definition, path) : definition.handler,
  });
}

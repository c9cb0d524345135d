import { type AnySchema, flattenIssues, type StandardResult } from '../schema/index.ts';
import type { AnyHandlerResult } from '../types/index.ts';
import { isJsonMediaType, mediaType } from './body.ts';
import type { CompiledRoute, ResponseHeaderSets, ResponsePlan } from './compiled-route.ts';
import type { RequestContext } from './context.ts';
import { isFieldValue, setResponseHeaders } from './response-headers.ts';
import { fieldBlock, PlannedResponse, type WireHeaders } from './planned-response.ts';
import { recordPayload } from './response-payload.ts';
import { isHttpToken } from '../security/header-guards.ts';
import { ResponseContractError } from './contract-violation.ts';

// RFC 9110 §15.3.5, §15.4.5: these statuses never carry content.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * How one declared status is answered, decided at registration: the header sets `respond` uses
 * as they are, and whether a string body is JSON text (declared JSON content type) or sent as is.
 */
export function responsePlan(
  status: number,
  schema: AnySchema | undefined,
  contentType: string | undefined,
  security: ReadonlyArray<readonly [string, string]>,
): ResponsePlan {
  const build = (type: string | undefined): WireHeaders =>
    fieldBlock(type === undefined ? security : [['content-type', type], ...security]);
  const sets = Object.freeze({
    empty: build(undefined),
    json: build(contentType ?? JSON_TYPE),
    text: build(TEXT_TYPE),
  });
  return Object.freeze({
    status,
    schema,
    contentType,
    stringAsJson: contentType !== undefined && isJsonMediaType(mediaType(contentType) ?? ''),
    headersFor: sets,
    initFor: responseInits(status, sets),
  });
}

/**
 * `{ status, headers }` of each header set, each made on first use: the `Headers` inside are (see
 * `fieldBlock`), and an adapter that writes planned answers never asks for them.
 */
class ResponseInits {
  readonly #status: number;
  readonly #sets: ResponseHeaderSets;
  #empty: ResponseInit | undefined = undefined;
  #json: ResponseInit | undefined = undefined;
  #text: ResponseInit | undefined = undefined;

  constructor(status: number, sets: ResponseHeaderSets) {
    this.#status = status;
    this.#sets = sets;
  }

  get empty(): ResponseInit {
    return (this.#empty ??= this.#init(this.#sets.empty));
  }
  get json(): ResponseInit {
    return (this.#json ??= this.#init(this.#sets.json));
  }
  get text(): ResponseInit {
    return (this.#text ??= this.#init(this.#sets.text));
  }

  #init(set: WireHeaders): ResponseInit {
    return Object.freeze({ status: this.#status, headers: set.headers });
  }
}

/** The inits of `status` on `sets`, for `new Response(payload, init)`; see ResponsePlan.initFor. */
export function responseInits(status: number, sets: ResponseHeaderSets): ResponsePlan['initFor'] {
  return Object.freeze(new ResponseInits(status, sets));
}

/**
 * True for a plain object, a plain array or a value that is no object: the usual handler results and
 * bodies, none of them a Response or a body `new Response` takes as it is. Asked before `instanceof`
 * so that on Node naming `Response` or `FormData` (undici, loaded on first use) waits for an app that
 * has one (planned-response.ts, `linkPlannedResponses`).
 */
function isPlainValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

function isPassThroughBody(body: unknown): body is BodyInit {
  if (isPlainValue(body)) return false;
  return (
    body instanceof ReadableStream ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

/**
 * Copies headers set through `ctx.set` onto a response: fields the response already has win,
 * cookies add up (RFC 6265 §3); a response with immutable headers is copied first.
 */
export function withPendingHeaders(response: Response, pending: Headers | undefined): Response {
  return pending === undefined ? response : setResponseHeaders(response, pending, { overwrite: false });
}

/**
 * A raw Response from a guard hook or the handler. A successful one skips response validation,
 * so the route must say it knows (`acknowledgeNoResponseBodySchema`); denials (4xx/5xx) need not.
 */
export function acceptRawResponse(
  route: CompiledRoute,
  ctx: RequestContext,
  response: Response,
  from: string,
): Response {
  if (response.status < 400 && !route.acknowledgeRawResponse) {
    throw new ResponseContractError({
      method: route.method,
      path: route.path,
      status: response.status,
      issues: [{ path: '', message: 'a raw success Response skips response validation (not acknowledged)' }],
      detail:
        `${from} of ${route.method} ${route.path} answered ${response.status} with a raw Response, which skips ` +
        'response validation; set acknowledgeNoResponseBodySchema: true on the route to allow it',
    });
  }
  return withPendingHeaders(response, ctx.pendingHeaders);
}

function assertResult(route: CompiledRoute, result: unknown): asserts result is AnyHandlerResult {
  if (
    typeof result !== 'object' ||
    result === null ||
    typeof (result as { status?: unknown }).status !== 'number'
  ) {
    const detail = `The handler of ${route.method} ${route.path} must return { status, body?, headers? } or a Response`;
    throw new ResponseContractError({
      method: route.method,
      path: route.path,
      issues: [{ path: '', message: 'the result is not { status, body?, headers? } or a Response' }],
      detail,
    });
  }
}

function planFor(route: CompiledRoute, status: number): ResponsePlan {
  const plan = route.responses.get(status);
  if (plan === undefined) {
    throw new ResponseContractError({
      method: route.method,
      path: route.path,
      status,
      issues: [
        { path: '', message: `status ${status} is not declared (declared: ${route.declaredStatuses})` },
      ],
      detail:
        `The handler of ${route.method} ${route.path} returned status ${status}, which the route does not ` +
        `declare (declared: ${route.declaredStatuses})`,
    });
  }
  return plan;
}

function serialise(
  result: AnyHandlerResult,
  plan: ResponsePlan,
  ctx: RequestContext,
  body: unknown,
): Response {
  const status = result.status;
  const pending = ctx.pendingHeaders;
  // A null body is no body, unless the status declares a body schema: then null is its JSON value,
  // sent as `null` under application/json as the OpenAPI document says.
  const noBody =
    body === undefined || (body === null && plan.schema === undefined) || NULL_BODY_STATUSES.has(status);
  if (pending === undefined && result.headers === undefined) {
    // The common case: no extra headers, so the prebuilt header sets (content type plus the App's
    // security headers) are used as they are, and step 8 has nothing left to add. Streams, blobs
    // and forms take the general path: their content type may come from the body itself.
    const response = prebuilt(ctx, plan, status, body, noBody);
    if (response !== undefined) {
      // Marked only once built: a body JSON cannot encode throws, and its 500 is hardened in step 8.
      ctx.hardened = true;
      return response;
    }
  }
  // The handler's headers win over those hooks set (`ctx.set`); Set-Cookie fields from both are kept.
  // One Headers object is built (the handler's, which also validates them) and the few hook headers
  // are merged into it, rather than copying both into a third.
  let headers: Headers;
  if (result.headers === undefined) headers = new Headers(pending);
  else {
    headers = resultHeaders(ctx, result.headers);
    if (pending !== undefined) {
      for (const [name, value] of pending)
        if (name !== 'set-cookie' && !headers.has(name)) headers.set(name, value);
      const hookCookies = pending.getSetCookie();
      if (hookCookies.length > 0) {
        // Cookies in the order they were set: the hooks' (which ran first), then the handler's.
        const handlerCookies = headers.getSetCookie();
        headers.delete('set-cookie');
        for (const cookie of [...hookCookies, ...handlerCookies]) headers.append('set-cookie', cookie);
      }
    }
  }
  if (noBody) return new Response(null, { status, headers });
  const declared = plan.contentType;
  let payload: BodyInit;
  let type: string | undefined;
  if (isPassThroughBody(body)) {
    payload = body;
    type = declared;
  } else if (typeof body === 'string' && !plan.stringAsJson) {
    payload = body;
    type = declared ?? TEXT_TYPE;
  } else {
    payload = JSON.stringify(body);
    type = declared ?? JSON_TYPE;
  }
  if (type !== undefined && !headers.has('content-type')) headers.set('content-type', type);
  const response = new Response(payload, { status, headers });
  // Text the pipeline made, recorded for an adapter that writes it itself and for HEAD's length
  // (response-payload.ts).
  return typeof payload === 'string' && ctx.recordsPayload ? recordPayload(response, payload) : response;
}

/**
 * The response on a prebuilt header set, or undefined for a pass-through body (stream, blob, form...).
 * For an adapter that writes planned answers (planned-response.ts), no Response is built at all.
 */
function prebuilt(
  ctx: RequestContext,
  plan: ResponsePlan,
  status: number,
  body: unknown,
  noBody: boolean,
): Response | undefined {
  let kind: keyof ResponseHeaderSets;
  let payload: string | null;
  if (noBody) {
    kind = 'empty';
    payload = null;
  } else if (typeof body === 'string' && !plan.stringAsJson) {
    kind = plan.contentType === undefined ? 'text' : 'json';
    payload = body;
  } else if (isPassThroughBody(body)) {
    return undefined;
  } else {
    kind = 'json';
    payload = JSON.stringify(body);
  }
  if (ctx.plannedAnswers)
    return new PlannedResponse(status, plan.headersFor[kind], payload) as unknown as Response;
  // The plan's status is the result's: `planFor` found the plan by it.
  const response = new Response(payload, plan.initFor[kind]);
  return payload !== null && ctx.recordsPayload ? recordPayload(response, payload) : response;
}

/**
 * The handler's `headers`, refusing names and values a header cannot carry (RFC 9110 §5.1, §5.5:
 * CR, LF and NUL are how response splitting works). It is the handler's fault even when the value
 * came from the request, so it is a 500 that names the field and never repeats the value.
 */
function resultHeaders(ctx: RequestContext, init: HeadersInit): Headers {
  try {
    return new Headers(init);
  } catch {
    // A Headers init that throws is pairs or a record (a Headers object is already valid).
    const pairs = Array.isArray(init) ? (init as [string, string][]) : Object.entries(init as object);
    const bad = pairs.find(([name, value]) => !isHttpToken(name) || !isFieldValue(String(value)))?.[0];
    const route = ctx.route;
    const named = bad !== undefined && isHttpToken(bad) ? `"${bad}" ` : '';
    throw new ResponseContractError({
      method: route.method,
      path: route.path,
      issues: [{ path: '', message: `header ${named}is not a valid field (RFC 9110 §5.5)` }],
      detail:
        `The handler of ${route.method} ${route.path} returned a header ${named}that is not a valid field ` +
        '(control characters such as CR, LF and NUL are not allowed, RFC 9110 §5.5)',
    });
  }
}

function contractViolation(
  route: CompiledRoute,
  status: number,
  result: StandardResult<unknown>,
): ResponseContractError {
  const issues = flattenIssues(result.issues ?? []).map((i) => ({
    path: i.path.join('.'),
    message: i.message,
  }));
  const described = issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path}: ${i.message}` : i.message))
    .join('; ');
  return new ResponseContractError({
    method: route.method,
    path: route.path,
    status,
    issues,
    detail: `The response body for status ${status} of ${route.method} ${route.path} does not match its schema: ${described}`,
  });
}

/** Turns a handler result into a Response, validating its body against the declared schema. */
export function respond(
  route: CompiledRoute,
  ctx: RequestContext,
  result: unknown,
): Response | Promise<Response> {
  if (!isPlainValue(result) && result instanceof Response) {
    planFor(route, result.status);
    return acceptRawResponse(route, ctx, result, 'The handler');
  }
  assertResult(route, result);
  const plan = planFor(route, result.status);
  if (plan.schema === undefined || !route.validateResponses) return serialise(result, plan, ctx, result.body);
  const checked = plan.schema['~standard'].validate(result.body);
  if (checked instanceof Promise) return checked.then((r) => serialiseChecked(route, ctx, result, plan, r));
  return serialiseChecked(route, ctx, result, plan, checked);
}

/** The response of a result whose body went through its schema (the schema's output is sent). */
function serialiseChecked(
  route: CompiledRoute,
  ctx: RequestContext,
  result: AnyHandlerResult,
  plan: ResponsePlan,
  checked: StandardResult<unknown>,
): Response {
  if (checked.issues !== undefined) throw contractViolation(route, result.status, checked);
  return serialise(result, plan, ctx, (checked as { value: unknown }).value);
}

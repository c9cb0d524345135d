/**
 * From a Lambda HTTP event to the Web `Request` the App speaks. An event whose shape is not one of the
 * documented HTTP events is a deployment mistake (the function wired to another trigger) and throws
 * `LambdaEventError`; an HTTP event whose values cannot form a request (a method that is not a token,
 * a header value with a line break, a body that is not base64) is the client's, and is answered 400.
 */
import { Buffer } from 'node:buffer';
import { BadRequestError, HttpError, WIRE_ANSWERS } from '@charter/core';
import type {
  AlbEvent,
  ApiGatewayV1Event,
  ApiGatewayV2Event,
  LambdaEventSource,
  LambdaHttpEvent,
  MultiValueMap,
  SingleValueMap,
} from './events.ts';

/** Thrown for an event that is not an HTTP event of API Gateway, a Function URL or an ALB. */
export class LambdaEventError extends TypeError {
  override readonly name = 'LambdaEventError';
}

const EXPECTED =
  'toLambdaHandler takes API Gateway REST (payload 1.0), HTTP API (payload 1.0 or 2.0), Function URL and ' +
  'Application Load Balancer events';

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(reason: string): never {
  throw new LambdaEventError(`The Lambda event is not an HTTP event (${reason}): ${EXPECTED}`);
}

/** Which integration sent `event`; throws LambdaEventError when it is none of them. */
export function eventSource(event: unknown): LambdaEventSource {
  if (!isObject(event))
    fail(`got ${event === null ? 'null' : Array.isArray(event) ? 'an array' : typeof event}`);
  const context = event.requestContext;
  if (!isObject(context)) fail('it has no requestContext object');
  if (isObject(context.elb)) {
    if (typeof event.httpMethod !== 'string' || typeof event.path !== 'string') {
      fail('an ALB event needs httpMethod and path strings');
    }
    return 'alb';
  }
  if (event.version === '2.0') {
    const http = context.http;
    if (!isObject(http) || typeof http.method !== 'string' || typeof event.rawPath !== 'string') {
      fail('a payload 2.0 event needs requestContext.http.method and rawPath strings');
    }
    const domain = context.domainName;
    // Function URLs send the 2.0 shape from <url-id>.lambda-url.<region>.on.aws.
    return typeof domain === 'string' && domain.includes('.lambda-url.') ? 'function-url' : 'api-gateway-v2';
  }
  if (typeof event.httpMethod === 'string' && typeof event.path === 'string') return 'api-gateway-v1';
  fail('it has neither httpMethod and path (payload 1.0, ALB) nor version "2.0" (payload 2.0)');
}

function singleValues(value: unknown, field: string): SingleValueMap {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) fail(`${field} is not an object`);
  return value as SingleValueMap;
}

function multiValues(value: unknown, field: string): MultiValueMap {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) fail(`${field} is not an object`);
  for (const [name, list] of Object.entries(value)) {
    if (list !== undefined && list !== null && !Array.isArray(list)) fail(`${field}.${name} is not an array`);
  }
  return value as MultiValueMap;
}

/** A request field the Fetch Headers refuse (a line break, a name that is not a token) answers 400. */
class InvalidField extends BadRequestError {}

function append(headers: Headers, name: string, value: unknown): void {
  if (typeof value !== 'string') return; // API Gateway sends null for a field with no value
  try {
    headers.append(name, value);
  } catch {
    throw new InvalidField(`The request header field ${JSON.stringify(name.slice(0, 64))} is not valid`);
  }
}

/**
 * Every header field of the event. The 1.0 shape carries both `headers` (last value) and
 * `multiValueHeaders` (every value); the second wins for a name it has, as API Gateway merges them.
 * Repeated Cookie fields become one, joined with "; " (RFC 6265 §5.4), not with the comma other
 * repeated fields take.
 */
function collectHeaders(
  single: SingleValueMap,
  multi: MultiValueMap,
  cookies: readonly unknown[] | undefined,
): Headers {
  const headers = new Headers();
  const cookieParts: string[] = [];
  const seen = new Set<string>();
  if (multi) {
    for (const [name, values] of Object.entries(multi)) {
      const lower = name.toLowerCase();
      seen.add(lower);
      for (const value of values ?? []) {
        if (lower === 'cookie') {
          if (typeof value === 'string') cookieParts.push(value);
        } else append(headers, name, value);
      }
    }
  }
  if (single) {
    for (const [name, value] of Object.entries(single)) {
      const lower = name.toLowerCase();
      if (seen.has(lower)) continue;
      if (lower === 'cookie') {
        if (typeof value === 'string') cookieParts.push(value);
      } else append(headers, name, value);
    }
  }
  for (const cookie of cookies ?? []) if (typeof cookie === 'string') cookieParts.push(cookie);
  if (cookieParts.length > 0) append(headers, 'cookie', cookieParts.join('; '));
  return headers;
}

/** A query string from decoded parameters (1.0 shape): encoded again, every value of a name kept. */
function encodedQuery(single: SingleValueMap, multi: MultiValueMap): string {
  const params = new URLSearchParams();
  if (multi) {
    for (const [name, values] of Object.entries(multi)) {
      for (const value of values ?? []) if (typeof value === 'string') params.append(name, value);
    }
  } else if (single) {
    for (const [name, value] of Object.entries(single))
      if (typeof value === 'string') params.append(name, value);
  }
  return params.toString();
}

/**
 * A query string from parameters the ALB passes as the client sent them ("the load balancer does not
 * decode them"): rejoined as they are. A `#` cannot be in a query the client sent; escaped, it cannot
 * cut the URL short.
 */
function rawQuery(single: SingleValueMap, multi: MultiValueMap): string {
  const parts: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (typeof value !== 'string') return;
    parts.push(value === '' ? name : `${name}=${value}`);
  };
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) add(name, value);
  } else if (single) {
    for (const [name, value] of Object.entries(single)) add(name, value);
  }
  return parts.join('&').replaceAll('#', '%23');
}

/**
 * The path as the URL parser should see it. `?` and `#` in a path the platform decoded would end the
 * path early, and `\` is read as `/` by the WHATWG parser in http(s) URLs: each is escaped so the app
 * routes the path it was given, and its traversal guard sees an escaped backslash, not a new segment.
 */
function safePath(path: string, basePath: string | undefined): string | HttpError {
  let out = path;
  if (basePath !== undefined && (out === basePath || out.startsWith(`${basePath}/`))) {
    out = out.slice(basePath.length) || '/';
  }
  if (!out.startsWith('/')) return new BadRequestError('The request path must start with "/"');
  return out.replaceAll('?', '%3F').replaceAll('#', '%23').replaceAll('\\', '%5C');
}

// RFC 4648 §4 base64, whole quanta only: what API Gateway, Function URLs and the ALB send.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function bodyBytes(body: unknown, base64: unknown): Uint8Array<ArrayBuffer> | HttpError {
  if (body === undefined || body === null || body === '') return new Uint8Array(0);
  if (typeof body !== 'string') fail('body is not a string');
  if (base64 === true) {
    if (body.length % 4 !== 0 || !BASE64.test(body)) {
      return new BadRequestError('The request body is marked base64 but is not valid base64');
    }
    const decoded = Buffer.from(body, 'base64');
    // A view of the decoded bytes only (a small Buffer sits in a shared pool; its range is its own).
    return new Uint8Array(decoded.buffer as ArrayBuffer, decoded.byteOffset, decoded.byteLength);
  }
  return new TextEncoder().encode(body);
}

// RFC 9110 §9.1: a method is a token (§5.6.2 tchar).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/** What an event gives: the request to serve and its peer, or the problem to answer. */
export type BuiltRequest =
  | { readonly request: Request; readonly peer: string | undefined }
  | { readonly problem: HttpError };

export interface BuildOptions {
  /** A path prefix removed before routing (an HTTP API stage, a custom domain's base path mapping). */
  basePath?: string | undefined;
  /** Aborted when the client goes away (streaming handler). */
  signal?: AbortSignal | undefined;
}

/** The method of an event of a known source, upper-cased (for answering a problem: HEAD has no body). */
export function eventMethod(event: LambdaHttpEvent, source: LambdaEventSource): string {
  const method =
    source === 'api-gateway-v2' || source === 'function-url'
      ? (event as ApiGatewayV2Event).requestContext.http.method
      : (event as ApiGatewayV1Event | AlbEvent).httpMethod;
  return method.toUpperCase();
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/** Builds the Request for an event of a known source (see `eventSource`). */
export function buildRequest(
  event: LambdaHttpEvent,
  source: LambdaEventSource,
  options: BuildOptions,
): BuiltRequest {
  const raw = event as unknown as Obj;
  const context = raw.requestContext as Obj;
  let method: string;
  let path: string;
  let query: string;
  let headers: Headers;
  let peer: unknown;
  let scheme = 'https';
  try {
    if (source === 'api-gateway-v2' || source === 'function-url') {
      const v2 = event as ApiGatewayV2Event;
      const http = context.http as Obj;
      method = http.method as string;
      path = v2.rawPath;
      query = typeof raw.rawQueryString === 'string' ? raw.rawQueryString.replaceAll('#', '%23') : '';
      const cookies = raw.cookies;
      if (cookies !== undefined && cookies !== null && !Array.isArray(cookies))
        fail('cookies is not an array');
      headers = collectHeaders(
        singleValues(raw.headers, 'headers'),
        undefined,
        cookies as unknown[] | undefined,
      );
      peer = http.sourceIp;
    } else {
      const v1 = event as ApiGatewayV1Event | AlbEvent;
      method = v1.httpMethod;
      path = v1.path;
      const single = singleValues(raw.queryStringParameters, 'queryStringParameters');
      const multi = multiValues(raw.multiValueQueryStringParameters, 'multiValueQueryStringParameters');
      query = source === 'alb' ? rawQuery(single, multi) : encodedQuery(single, multi);
      headers = collectHeaders(
        singleValues(raw.headers, 'headers'),
        multiValues(raw.multiValueHeaders, 'multiValueHeaders'),
        undefined,
      );
      if (source === 'alb') {
        // An ALB listener may be plain HTTP; the load balancer sets X-Forwarded-Proto to the listener's
        // protocol. API Gateway and Function URLs only have HTTPS endpoints.
        const proto = headers.get('x-forwarded-proto')?.split(',').pop()?.trim().toLowerCase();
        scheme = proto === 'http' ? 'http' : 'https';
      } else {
        peer = isObject(context.identity) ? context.identity.sourceIp : undefined;
      }
    }
  } catch (error) {
    if (error instanceof InvalidField) return { problem: error };
    throw error;
  }

  const upper = method.toUpperCase();
  if (!TOKEN.test(method)) return { problem: new BadRequestError('The request method is not a valid token') };
  if (FORBIDDEN_METHODS.has(upper)) {
    // Fetch refuses these in a Request; RFC 9110 §15.6.2 answers a method the server does not support 501.
    return {
      problem: new HttpError({
        status: 501,
        detail: `The ${upper} method is not supported`,
        internal: false,
      }),
    };
  }
  const target = safePath(path, options.basePath);
  if (target instanceof HttpError) return { problem: target };
  const body = bodyBytes(raw.body, raw.isBase64Encoded);
  if (body instanceof HttpError) return { problem: body };

  // The platform delivered the body whole and de-chunked: its length is the one that counts, and a
  // GET or HEAD carries none (Fetch refuses one, and RFC 9110 §9.3.1 gives it no meaning).
  headers.delete('transfer-encoding');
  const withBody = body.byteLength > 0 && !BODYLESS_METHODS.has(upper);
  if (withBody) headers.set('content-length', String(body.byteLength));
  else headers.delete('content-length');

  // The authority: the Host field when it is one (the core answers 400 for one that is not), else the
  // domain the platform reports.
  const host = headers.get('host');
  const domain = stringOr(context.domainName, 'localhost');
  const authority = host !== null && isAuthority(host) ? host : isAuthority(domain) ? domain : 'localhost';
  const url = `${scheme}://${authority}${target}${query === '' ? '' : `?${query}`}`;
  if (!URL.canParse(url)) return { problem: new BadRequestError('The request target is not a valid URL') };
  try {
    const request = new Request(url, {
      method,
      headers,
      body: withBody ? body : null,
      signal: options.signal ?? null,
    });
    // The result is built from the answer's text (response.ts): the pipeline may answer with a
    // planned response, whose text needs no body stream read back (planned-response.ts in the core).
    Object.defineProperty(request, WIRE_ANSWERS, { value: true });
    return { request, peer: typeof peer === 'string' && peer !== '' ? peer : undefined };
  } catch {
    return { problem: new BadRequestError('The request method or target cannot form a valid request') };
  }
}

// Host values that cannot change the URL's structure (no userinfo, path, query or whitespace).
const AUTHORITY = /^[A-Za-z0-9.\-_~%!$&'()*+,;=:[\]]+$/;

function isAuthority(value: string): boolean {
  return value.length > 0 && AUTHORITY.test(value) && !value.includes('@');
}

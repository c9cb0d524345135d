/**
 * The HTTP side of the Streamable HTTP transport (MCP 2025-11-25 and 2026-07-28 "Transports"):
 * Origin validation, the methods the endpoint answers, the media type, the body cap, and the
 * responses: JSON-RPC envelopes as `application/json`, transport refusals as RFC 9457 problems.
 */
import { ForbiddenError, type HttpError, MethodNotAllowedError, problemResponse } from '@charter/core';
import type { JsonRpcResponse } from '@charter/json-rpc';

/**
 * Methods of the endpoint, for `Allow` (RFC 9110 §10.2.1). GET is answered only to say that no
 * stream is offered, so it is not listed: the 405 and the OPTIONS answer agree.
 */
export const ENDPOINT_METHODS = 'POST, OPTIONS';

/** Methods of an endpoint that keeps sessions: GET opens a session's stream, DELETE ends a session. */
export const SESSION_ENDPOINT_METHODS = 'GET, POST, DELETE, OPTIONS';

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (hostname === '[::1]') return true;
  // 127.0.0.0/8 (RFC 1122 §3.2.1.3); URL has already normalised the dotted quad.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * MCP Streamable HTTP, "Security Warning": servers MUST validate Origin to stop DNS rebinding. A
 * request without Origin (not from a browser) passes; a loopback origin passes (a local client);
 * `null` and every other origin pass only when listed. Same-origin is not enough: a rebound name
 * makes the attacker's page same-origin with the server.
 */
export function isOriginAllowed(origin: string | null, allowed: ReadonlySet<string>): boolean {
  if (origin === null) return true;
  if (allowed.has(origin)) return true;
  if (origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.origin === origin &&
    isLoopbackHost(url.hostname)
  );
}

/** Builds the handler's responses with its fixed headers. */
export class Responder {
  readonly #headers: Readonly<Record<string, string>>;

  constructor(headers: Readonly<Record<string, string>>) {
    this.#headers = headers;
  }

  #base(): Headers {
    // Answers are per request and may depend on the caller's credentials: never stored by caches
    // (RFC 9111 §5.2.2.5). The configured headers come last so they can say otherwise.
    const headers = new Headers({ 'cache-control': 'no-store' });
    for (const [name, value] of Object.entries(this.#headers)) headers.set(name, value);
    return headers;
  }

  /** A JSON-RPC response (or a batch of them) as `application/json`. */
  json(body: JsonRpcResponse | readonly JsonRpcResponse[], status: number): Response {
    const headers = this.#base();
    headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(body), { status, headers });
  }

  /** JSON-RPC answers already serialised (a batch assembled answer by answer), as `application/json`. */
  jsonText(body: string, status: number): Response {
    const headers = this.#base();
    headers.set('content-type', 'application/json');
    return new Response(body, { status, headers });
  }

  /** An SSE answer: notifications about the request, then its response (no proxy buffering). */
  eventStream(body: ReadableStream<Uint8Array>): Response {
    const headers = this.#base();
    headers.set('content-type', 'text/event-stream');
    headers.set('x-accel-buffering', 'no');
    return new Response(body, { status: 200, headers });
  }

  /** 202 Accepted with no body: a notification or a client's response was taken. */
  accepted(): Response {
    return new Response(null, { status: 202, headers: this.#base() });
  }

  /** 204 with no body: a session was ended (DELETE). */
  noContent(): Response {
    return new Response(null, { status: 204, headers: this.#base() });
  }

  /** A problem document for a refusal below JSON-RPC (origin, method, media type, size). */
  problem(error: HttpError, extensions?: Record<string, unknown>): Response {
    const problem = { ...error.toProblem(false), ...extensions };
    const headers = this.#base();
    return problemResponse(problem, error.headers, headers);
  }

  /** 204 for a CORS preflight or an OPTIONS probe. */
  options(allow: string = ENDPOINT_METHODS): Response {
    const headers = this.#base();
    headers.set('allow', allow);
    return new Response(null, { status: 204, headers });
  }
}

/** 403 for a browser origin that is not allowed. */
export function forbiddenOrigin(origin: string): HttpError {
  return new ForbiddenError(
    `The Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed to call this tool server`,
  );
}

/** 405 for GET (no server-to-client stream is offered) and any other method but POST and OPTIONS. */
export function methodNotAllowed(method: string, allow: string = ENDPOINT_METHODS): HttpError {
  return new MethodNotAllowedError(
    allow.split(', '),
    method === 'GET'
      ? 'This tool server offers no server-to-client stream: send JSON-RPC requests with POST'
      : `${method.slice(0, 20)} is not supported here: send JSON-RPC requests with POST`,
  );
}

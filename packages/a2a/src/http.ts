/**
 * The HTTP side of the A2A 1.0 JSON-RPC binding: Origin policy, methods, media type, body cap and
 * the shapes of answers. JSON-RPC envelopes travel as `application/json`; refusals below JSON-RPC
 * (origin, method, media type, size, caller) are RFC 9457 problems.
 */
import {
  ForbiddenError,
  type HttpError,
  httpError,
  MethodNotAllowedError,
  problemResponse,
  UnauthorizedError,
} from '@charter/core';
import type { JsonRpcResponse } from '@charter/json-rpc';

/** Request headers a browser on an allowed origin may send to the JSON-RPC endpoint. */
const RPC_ALLOW_HEADERS = 'Authorization, Content-Type, A2A-Version, A2A-Extensions';

/** Builds the handler's answers with its configured headers (set last, so they win). */
export class Responder {
  readonly #headers: Readonly<Record<string, string>>;

  constructor(headers: Readonly<Record<string, string>>) {
    this.#headers = headers;
  }

  /** Fresh headers: `base`, then the configured ones. */
  headers(base: Record<string, string>): Headers {
    const headers = new Headers(base);
    for (const [name, value] of Object.entries(this.#headers)) headers.set(name, value);
    return headers;
  }

  /** A JSON-RPC response. Per-caller data: never stored by caches (RFC 9111 §5.2.2.5). */
  json(body: JsonRpcResponse, cors: Record<string, string>): Response {
    const headers = this.headers({
      'cache-control': 'no-store',
      'content-type': 'application/json',
      ...cors,
    });
    return new Response(JSON.stringify(body), { status: 200, headers });
  }

  /** 202 with no body (a JSON-RPC notification: nothing to answer). */
  accepted(cors: Record<string, string>): Response {
    return new Response(null, {
      status: 202,
      headers: this.headers({ 'cache-control': 'no-store', ...cors }),
    });
  }

  /** A problem document for a refusal below JSON-RPC. */
  problem(error: HttpError, cors: Record<string, string> = {}): Response {
    return problemResponse(
      error.toProblem(false),
      error.headers,
      this.headers({ 'cache-control': 'no-store', ...cors }),
    );
  }
}

/** CORS response headers for an allowed browser origin (none when the request has no Origin). */
export function rpcCors(origin: string | null): Record<string, string> {
  return origin === null ? {} : { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/** The preflight answer of the JSON-RPC endpoint for an allowed origin (Fetch §3.2.3). */
export function rpcPreflightHeaders(origin: string | null): Record<string, string> {
  const headers: Record<string, string> = { allow: 'POST, OPTIONS' };
  if (origin === null) return headers;
  return {
    ...headers,
    ...rpcCors(origin),
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': RPC_ALLOW_HEADERS,
    'access-control-max-age': '600',
  };
}

/** 403 for a browser origin not in `allowedOrigins`. */
export function forbiddenOrigin(origin: string): HttpError {
  return new ForbiddenError(
    `The Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed to call this agent`,
  );
}

/** 405 with the methods the endpoint serves. */
export function methodNotAllowed(method: string, allow: readonly string[]): HttpError {
  return new MethodNotAllowedError(
    [...allow],
    `${method.slice(0, 20)} is not supported here: use ${allow.join(' or ')}`,
  );
}

/** 401 when the task owner cannot be resolved (an unresolved owner is refused with 401: https://charter.dev/docs/a2a). */
export function ownerUnresolved(): HttpError {
  return new UnauthorizedError('This agent keeps tasks per caller, and the caller could not be identified');
}

/** 500 when a production App would publish an insecure card url (fails closed; see a2aRoutes). */
export function insecureCard(problem: string): HttpError {
  return httpError({ status: 500, detail: `The agent is misconfigured for production: ${problem}` });
}

/**
 * Every problem document the site sends carries two extension members besides the RFC 9457 ones
 * (site.md "Problem"): `code`, a snake_case machine code, and `hint`, one sentence on how to
 * recover. Site code that knows better sets both when it throws (`extensions: { code, hint }`);
 * everything else (the router's 404 and 405, body limits, timeouts, the rate limiter, the tool
 * server's transport refusals) gets them here, from the problem's `type`, as the response leaves.
 * Only problem responses are touched, so the normal path pays one header lookup.
 */
import type { Hooks } from '@charter/core';
import { type } from 'arktype';

/** An RFC 9457 problem with the site's members: what every problem response of the site carries. */
export const SiteProblem = type({
  type: 'string',
  title: 'string',
  status: 'number.integer',
  'detail?': 'string',
  'instance?': 'string',
  code: type('string').describe('Machine-readable error code (snake_case)'),
  hint: type('string').describe('How to recover, in one sentence'),
});

/** A site problem code and its recovery hint. */
export interface ProblemCode {
  readonly code: string;
  readonly hint: string;
}

/** Codes for the framework's problem types (`https://charter.dev/errors/<slug>`), by slug. */
const BY_TYPE_SLUG: Readonly<Record<string, ProblemCode>> = {
  'bad-request': {
    code: 'bad_request',
    hint: 'Fix the request as the detail says; the OpenAPI document at /openapi.json describes every endpoint.',
  },
  unauthorized: {
    code: 'invalid_token',
    hint: 'Send no Authorization header (every resource is public), or a fresh token from POST /oauth/token.',
  },
  forbidden: {
    code: 'forbidden',
    hint: 'The request is not allowed from this origin or with these credentials; see the detail.',
  },
  'not-found': {
    code: 'not_found',
    hint: 'Start from /api/v1 (the machine endpoints) or /llms.txt (the documentation index).',
  },
  'method-not-allowed': {
    code: 'method_not_allowed',
    hint: 'Use one of the methods the Allow header lists.',
  },
  'request-timeout': {
    code: 'request_timeout',
    hint: 'Retry the request; send the body promptly.',
  },
  'payload-too-large': {
    code: 'payload_too_large',
    hint: 'Send a smaller body; the detail gives the limit.',
  },
  'unsupported-media-type': {
    code: 'unsupported_media_type',
    hint: 'Send the body with a Content-Type this endpoint accepts; /openapi.json lists them.',
  },
  validation: {
    code: 'validation_failed',
    hint: 'Correct the fields the problem lists under issues, then retry.',
  },
  'too-many-requests': {
    code: 'rate_limited',
    hint: 'Wait the number of seconds in Retry-After; the RateLimit header shows the remaining quota.',
  },
  'request-header-fields-too-large': {
    code: 'headers_too_large',
    hint: 'Send fewer or smaller header fields.',
  },
  internal: {
    code: 'internal_error',
    hint: 'Retry later; if it persists, report it with the time of the request.',
  },
  'service-unavailable': {
    code: 'service_unavailable',
    hint: 'Retry after the number of seconds in Retry-After, or later.',
  },
  'gateway-timeout': {
    code: 'gateway_timeout',
    hint: 'Retry the request later.',
  },
};

const FALLBACK: ProblemCode = {
  code: 'error',
  hint: 'See the detail; /api/v1 lists the endpoints and /llms.txt the documentation.',
};

const TYPE_BASE = 'https://charter.dev/errors/';

/** The code and hint for a problem `type` URI (the framework's catalog, else a generic pair). */
export function problemCodeFor(type: unknown): ProblemCode {
  if (typeof type === 'string' && type.startsWith(TYPE_BASE)) {
    const slug = type.slice(TYPE_BASE.length);
    if (Object.hasOwn(BY_TYPE_SLUG, slug)) return BY_TYPE_SLUG[slug] as ProblemCode;
  }
  return FALLBACK;
}

function isProblem(response: Response): boolean {
  const type = response.headers.get('content-type');
  return type !== null && type.split(';', 1)[0]?.trim().toLowerCase() === 'application/problem+json';
}

/**
 * Adds `code` and `hint` to a problem document that lacks them. The body is a small JSON object
 * the site or the framework produced; anything that does not parse as one is left untouched.
 */
export async function withProblemCode(response: Response): Promise<Response> {
  if (!isProblem(response) || response.body === null) return response;
  const text = await response.text();
  let problem: unknown;
  try {
    problem = JSON.parse(text);
  } catch {
    problem = undefined;
  }
  const rebuild = (body: string) =>
    new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  if (typeof problem !== 'object' || problem === null || Array.isArray(problem)) return rebuild(text);
  const document = problem as Record<string, unknown>;
  if (typeof document.code === 'string' && typeof document.hint === 'string') return rebuild(text);
  const fallback = problemCodeFor(document.type);
  const completed = {
    ...document,
    code: typeof document.code === 'string' ? document.code : fallback.code,
    hint: typeof document.hint === 'string' ? document.hint : fallback.hint,
  };
  const response2 = rebuild(JSON.stringify(completed));
  response2.headers.delete('content-length');
  return response2;
}

/** The app-wide hook that completes problem documents (register it first, so it runs last in onSend). */
export function problemCodes(): Hooks {
  // Synchronous for every other response: the normal path makes no promise here.
  return { onSend: (response) => (isProblem(response) ? withProblemCode(response) : undefined) };
}

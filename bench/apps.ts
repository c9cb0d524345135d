/**
 * The servers of the HTTP benchmark:
 *   - `charter`: a Charter App with full contract validation (arktype schemas, responses validated) and
 *     its default response headers (the secure-headers set);
 *   - `plain`: a hand-written `Bun.serve` fetch handler that parses, routes and validates requests by hand
 *     with the same arktype schemas called directly; it validates no response and sends only
 *     `content-type`: the least a careful person writes;
 *   - `plain-same`: the same handler doing all of Charter's default work: it also validates every response
 *     body against its schema, sends the same response headers (so the bytes on the wire are identical),
 *     applies the same request guards (header count, duplicate Host, forwarded headers, cross-origin
 *     POST), reads bodies as strictly (fatal UTF-8, prototype keys) and answers slow requests with a 408.
 * All answer the same status codes and bodies (checked by `bench/http.ts` before measuring).
 */
import { App, type AppOptions } from '@charter/core';
import { type } from 'arktype';

// ---------------------------------------------------------------------------------------------
// Shared contract: the same schemas for both servers.

// Path params arrive as text: Charter converts `id` to a number because the schema asks for one
// (its coercion plan, from the schema's JSON Schema); the plain server converts it by hand. An
// arktype morph (`'string.integer.parse'`) would also work but costs ~1 µs per call on both sides.
export const UserParams = type({ id: 'number.integer' });
export const UserQuery = type({ 'fields?': 'string' });
export const User = type({ id: 'number', name: 'string', email: 'string' });
export const NewUser = type({ name: 'string >= 1', email: 'string.email' });
export const Health = type({ status: "'ok'" });
export const Problem = type({ type: 'string', title: 'string', status: 'number', 'detail?': 'string' });

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

/** The one user the store knows. */
const USERS: ReadonlyMap<number, { id: number; name: string; email: string }> = new Map([
  [42, { id: 42, name: 'Ada Lovelace', email: 'ada@example.com' }],
]);

function userNotFound(id: number): { type: string; title: string; status: 404; detail: string } {
  return { type: 'about:blank', title: 'Not Found', status: 404, detail: `No user with id ${id}` };
}

/** Ids handed out by `POST /users`; each server has its own counter, starting at 1. */
function idCounter(): () => number {
  let next = 1;
  return () => next++;
}

// ---------------------------------------------------------------------------------------------
// Charter.

/** The Charter server; `options` override the defaults (the profile script uses it, not the HTTP run). */
export function charterApp(options: AppOptions = {}): App {
  const nextId = idCounter();
  const app = new App({ logger: false, ...options });

  app.get('/health', { responses: { 200: { body: Health } } }, () => ({
    status: 200,
    body: { status: 'ok' as const },
  }));

  app.get(
    '/users/:id',
    {
      request: { params: UserParams, query: UserQuery },
      responses: { 200: { body: User }, 404: { body: Problem, contentType: PROBLEM_TYPE } },
    },
    (ctx) => {
      const user = USERS.get(ctx.params.id);
      if (user === undefined) return { status: 404, body: userNotFound(ctx.params.id) };
      return { status: 200, body: user };
    },
  );

  app.post('/users', { request: { body: NewUser }, responses: { 201: { body: User } } }, (ctx) => ({
    status: 201,
    body: { id: nextId(), name: ctx.body.name, email: ctx.body.email },
  }));

  return app;
}

// ---------------------------------------------------------------------------------------------
// Plain: what a careful person writes by hand with Bun.serve.

const BODY_LIMIT_BYTES = 1024 * 1024;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * Charter's default response headers in production (its secure-headers set, framework.md "Security primitives"),
 * written out by hand as `plain-same` would; `bench/http.ts` checks they match what Charter sends.
 */
export const SECURE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  [
    'content-security-policy',
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  // The benchmark runs both servers with NODE_ENV=production, where Charter adds HSTS (RFC 6797).
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-frame-options', 'DENY'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];

export interface PlainOptions {
  /**
   * Do Charter's default work too (`plain-same`): validate every response body, send SECURE_HEADERS,
   * guard the request the way Charter does, read bodies strictly and time requests out.
   */
  sameWork?: boolean;
}

// Charter's defaults, as plain-same applies them.
const MAX_HEADER_COUNT = 100;
const REQUEST_TIMEOUT_MS = 30_000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const PROTOTYPE_KEYS = /__proto__|constructor|prototype|\\u/;

/** True when a parsed JSON value has a key that reaches a prototype when merged. */
function hasPrototypeKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasPrototypeKey);
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return true;
    if (hasPrototypeKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The fetch handler of the plain server (`plain`, or `plain-same` with `sameWork`). */
export function plainHandler(options: PlainOptions = {}): (request: Request) => Response | Promise<Response> {
  const nextId = idCounter();
  const sameWork = options.sameWork === true;
  // Built once, like any careful hand-written server would.
  const jsonHeaders: Array<[string, string]> = [['content-type', JSON_TYPE]];
  const problemHeaders: Array<[string, string]> = [['content-type', PROBLEM_TYPE]];
  if (sameWork) {
    for (const [name, value] of SECURE_HEADERS) {
      jsonHeaders.push([name, value]);
      problemHeaders.push([name, value]);
    }
  }

  /** `schema` checks the body first when doing the same work; a violation is a 500, as in Charter. */
  function json(
    status: number,
    body: unknown,
    contentType = JSON_TYPE,
    schema?: (value: unknown) => unknown,
  ): Response {
    if (sameWork && schema !== undefined && schema(body) instanceof type.errors) {
      return problem(500, 'Internal Server Error');
    }
    const headers = contentType === JSON_TYPE ? jsonHeaders : problemHeaders;
    return new Response(JSON.stringify(body), { status, headers });
  }

  function problem(status: number, title: string, detail?: string): Response {
    const body =
      detail === undefined
        ? { type: 'about:blank', title, status }
        : { type: 'about:blank', title, status, detail };
    return json(status, body, PROBLEM_TYPE);
  }

  function methodNotAllowed(allow: string): Response {
    const response = problem(405, 'Method Not Allowed');
    response.headers.set('allow', allow);
    return response;
  }

  function getUser(rawId: string, search: string): Response {
    // Text that is not an integer goes to the schema as it is, which rejects it (422).
    const params = UserParams({ id: INTEGER.test(rawId) ? Number(rawId) : rawId });
    if (params instanceof type.errors) return problem(422, 'Unprocessable Content', params.summary);
    const query = UserQuery(Object.fromEntries(new URLSearchParams(search)));
    if (query instanceof type.errors) return problem(422, 'Unprocessable Content', query.summary);
    const user = USERS.get(params.id);
    if (user === undefined) return json(404, userNotFound(params.id), PROBLEM_TYPE, Problem);
    return json(200, user, JSON_TYPE, User);
  }

  /** The body as JSON: `request.json()`, or with `sameWork` as strictly as Charter reads it. */
  async function readJson(request: Request): Promise<unknown> {
    if (!sameWork) return request.json();
    const text = strictUtf8.decode(await request.bytes());
    const data: unknown = JSON.parse(text);
    if (PROTOTYPE_KEYS.test(text) && hasPrototypeKey(data)) throw new Error('prototype key');
    return data;
  }

  async function createUser(request: Request): Promise<Response> {
    const contentType = request.headers.get('content-type');
    if (contentType === null || contentType.split(';', 1)[0]?.trim().toLowerCase() !== JSON_TYPE) {
      return problem(415, 'Unsupported Media Type');
    }
    const length = Number(request.headers.get('content-length') ?? 0);
    if (length > BODY_LIMIT_BYTES) return problem(413, 'Content Too Large');
    let data: unknown;
    try {
      data = await readJson(request);
    } catch {
      return problem(400, 'Bad Request', 'The body is not valid JSON');
    }
    const input = NewUser(data);
    if (input instanceof type.errors) return problem(422, 'Unprocessable Content', input.summary);
    return json(201, { id: nextId(), name: input.name, email: input.email }, JSON_TYPE, User);
  }

  /**
   * Charter's default request guards, by hand: too many header fields (431), two Host fields (400),
   * forwarded headers with no proxy configured (400), and a cross-origin POST from a browser (403).
   */
  function guard(request: Request): Response | undefined {
    const headers = request.headers;
    if ((headers as unknown as { count: number }).count >= MAX_HEADER_COUNT) {
      return problem(431, 'Request Header Fields Too Large');
    }
    if (headers.get('host')?.includes(',') === true) return problem(400, 'Bad Request');
    if (headers.has('x-forwarded-for') || headers.has('forwarded')) return problem(400, 'Bad Request');
    if (request.method === 'POST') {
      const site = headers.get('sec-fetch-site');
      if (site !== 'same-origin' && site !== 'none') {
        const origin = headers.get('origin');
        // An older browser (no Fetch Metadata) posting to its own host passes, as in Charter.
        const ownHost = origin !== null && site === null && URL.parse(origin)?.host === headers.get('host');
        if (!ownHost && (origin !== null || site === 'cross-site' || site === 'same-site')) {
          return problem(403, 'Forbidden');
        }
      }
    }
    return undefined;
  }

  /** A 408 when the work takes longer than Charter's default request timeout. */
  function withTimeout(work: Promise<Response>): Promise<Response> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(problem(408, 'Request Timeout')), REQUEST_TIMEOUT_MS);
      work.then(
        (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        () => {
          clearTimeout(timer);
          resolve(problem(500, 'Internal Server Error'));
        },
      );
    });
  }

  const route = (request: Request): Response | Promise<Response> => {
    // Split the absolute URL without building a URL object.
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('://') + 3);
    const queryStart = url.indexOf('?', pathStart);
    const pathname = queryStart < 0 ? url.slice(pathStart) : url.slice(pathStart, queryStart);
    const search = queryStart < 0 ? '' : url.slice(queryStart + 1);
    const method = request.method;

    if (pathname === '/health') {
      return method === 'GET'
        ? json(200, { status: 'ok' }, JSON_TYPE, Health)
        : methodNotAllowed('GET, HEAD');
    }
    if (pathname === '/users') {
      return method === 'POST' ? createUser(request) : methodNotAllowed('POST');
    }
    if (pathname.startsWith('/users/')) {
      const id = pathname.slice('/users/'.length);
      if (id.length > 0 && !id.includes('/')) {
        if (method !== 'GET') return methodNotAllowed('GET, HEAD');
        let decoded: string;
        try {
          decoded = decodeURIComponent(id);
        } catch {
          return problem(400, 'Bad Request', 'The request path is not acceptable');
        }
        return getUser(decoded, search);
      }
    }
    return problem(404, 'Not Found');
  };

  if (!sameWork) return route;
  return (request) => {
    const refused = guard(request);
    if (refused !== undefined) return refused;
    const response = route(request);
    return response instanceof Promise ? withTimeout(response) : response;
  };
}

/**
 * The two servers of the HTTP benchmark, doing the same work:
 *   - `charter`: a Charter App with full contract validation (arktype schemas, responses validated);
 *   - `plain`: a hand-written `Bun.serve` fetch handler that parses, routes and validates by hand
 *     with the same arktype schemas called directly.
 * Both answer the same status codes and bodies (checked by `bench/http.ts` before measuring).
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

function json(status: number, body: unknown, contentType = JSON_TYPE): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
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

/** The fetch handler of the plain server. */
export function plainHandler(): (request: Request) => Response | Promise<Response> {
  const nextId = idCounter();

  function getUser(rawId: string, search: string): Response {
    // Text that is not an integer goes to the schema as it is, which rejects it (422).
    const params = UserParams({ id: INTEGER.test(rawId) ? Number(rawId) : rawId });
    if (params instanceof type.errors) return problem(422, 'Unprocessable Content', params.summary);
    const query = UserQuery(Object.fromEntries(new URLSearchParams(search)));
    if (query instanceof type.errors) return problem(422, 'Unprocessable Content', query.summary);
    const user = USERS.get(params.id);
    if (user === undefined) return json(404, userNotFound(params.id), PROBLEM_TYPE);
    return json(200, user);
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
      data = await request.json();
    } catch {
      return problem(400, 'Bad Request', 'The body is not valid JSON');
    }
    const input = NewUser(data);
    if (input instanceof type.errors) return problem(422, 'Unprocessable Content', input.summary);
    return json(201, { id: nextId(), name: input.name, email: input.email });
  }

  return (request) => {
    // Split the absolute URL without building a URL object.
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('://') + 3);
    const queryStart = url.indexOf('?', pathStart);
    const pathname = queryStart < 0 ? url.slice(pathStart) : url.slice(pathStart, queryStart);
    const search = queryStart < 0 ? '' : url.slice(queryStart + 1);
    const method = request.method;

    if (pathname === '/health') {
      return method === 'GET' ? json(200, { status: 'ok' }) : methodNotAllowed('GET, HEAD');
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
}

/**
 * The cross-runtime behaviour suite (issue 21): one list of checks that every adapter must pass with the
 * app of `./app.ts`, wherever that app runs.
 *
 * How an adapter plugs in:
 *   1. Serve `createBehaviourApp()` from `./app.ts` through the adapter, on its real runtime where one
 *      exists (Deno: a `deno run` child; workerd: miniflare; Lambda: the handler fed real event shapes;
 *      ...). Build the app from the built package (`bun run build`, then `charter` = packages/charter/dist):
 *      the app file imports only `charter`, `charter/streaming` and `zod`.
 *   2. Describe how to reach it as a `BehaviourTarget`: the origin requests are addressed to, and a
 *      `fetch(request)` that delivers one `Request` and gives back the `Response` (globalThis.fetch over
 *      HTTP for a listening server; for an in-process handler, a function translating the Request into
 *      the platform's event and the result back).
 *   3. From bun:test, call `describeBehaviour('<runtime>', () => target)` from `./bun.ts`: one test per
 *      check. A check the platform cannot pass goes in `except` with the reason (it is then run anyway
 *      and must fail, so the exception cannot outlive the limitation).
 *   Or, inside another runtime, call `runBehaviourChecks(target)` and report the JSON results back
 *   (`BehaviourResult[]`), then assert in bun:test that each is ok.
 *
 * This module imports no test framework and no runtime API: only `charter/client` (the typed client
 * check) and the app, so it runs on Bun, Node, Deno or in a worker.
 */
import { createClient, UnexpectedStatusError } from 'charter/client';
import { BEHAVIOUR_LIMITS, createBehaviourApp } from './app.ts';

/** How the suite reaches the app under test. */
export interface BehaviourTarget {
  /** Origin (and optional path prefix) the requests are addressed to, e.g. `http://127.0.0.1:8000`. */
  readonly baseUrl: string;
  /** Delivers one request to the adapter and resolves with its answer. */
  fetch(request: Request): Promise<Response>;
}

/** One behaviour every adapter must show. `run` throws (a `CheckFailure`) when it does not. */
export interface BehaviourCheck {
  readonly name: string;
  run(target: BehaviourTarget): Promise<void>;
}

/** The outcome of one check, as plain JSON (for runners in another runtime). */
export interface BehaviourResult {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

function fail(message: string): never {
  throw new CheckFailure(message);
}

function equal(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`);
}

function ok(condition: boolean, what: string): void {
  if (!condition) fail(what);
}

function request(target: BehaviourTarget, path: string, init?: RequestInit): Promise<Response> {
  return target.fetch(new Request(`${target.baseUrl}${path}`, { redirect: 'manual', ...init }));
}

async function json(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return fail(`${what}: the body is not JSON: ${text.slice(0, 200)}`);
  }
}

/** An RFC 9457 problem document: its media type, and `type`/`title`/`status` matching the answer. */
async function expectProblem(
  response: Response,
  status: number,
  what: string,
): Promise<Record<string, unknown>> {
  equal(response.status, status, `${what}: status`);
  equal(response.headers.get('content-type'), 'application/problem+json', `${what}: content-type`);
  const body = await json(response, what);
  equal(body.status, status, `${what}: problem status member`);
  ok(
    typeof body.type === 'string' && body.type.startsWith('https://charter.dev/errors/'),
    `${what}: problem type is a charter.dev error URI (got ${String(body.type)})`,
  );
  ok(typeof body.title === 'string' && body.title !== '', `${what}: problem has a title`);
  return body;
}

/** The headers `new App()` adds to every answer (production: HSTS included). */
function expectSecureHeaders(response: Response, what: string): void {
  equal(response.headers.get('x-content-type-options'), 'nosniff', `${what}: x-content-type-options`);
  equal(response.headers.get('x-frame-options'), 'DENY', `${what}: x-frame-options`);
  equal(response.headers.get('cross-origin-opener-policy'), 'same-origin', `${what}: COOP`);
  equal(response.headers.get('referrer-policy'), 'no-referrer', `${what}: referrer-policy`);
  ok(
    (response.headers.get('content-security-policy') ?? '').includes("default-src 'none'"),
    `${what}: content-security-policy with default-src 'none'`,
  );
  ok(
    (response.headers.get('strict-transport-security') ?? '').startsWith('max-age='),
    `${what}: strict-transport-security (production)`,
  );
  equal(response.headers.get('x-powered-by'), null, `${what}: no x-powered-by`);
}

const jsonHeaders = { 'content-type': 'application/json' };

/** The contract the typed client is built from: the same app, never served here. */
const contract = createBehaviourApp();

export const behaviourChecks: readonly BehaviourCheck[] = [
  {
    name: 'routing: a GET with a path parameter answers 200 with the JSON body',
    async run(target) {
      const res = await request(target, '/items/7');
      equal(res.status, 200, 'status');
      equal(res.headers.get('content-type'), 'application/json', 'content-type');
      equal(await json(res, 'body'), { id: 7, name: 'item 7' }, 'body');
    },
  },
  {
    name: 'routing: a POST with a JSON body answers 201 with its headers',
    async run(target) {
      const res = await request(target, '/items', {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ name: 'lamp' }),
      });
      equal(res.status, 201, 'status');
      equal(res.headers.get('location'), '/items/1', 'location');
      equal(await json(res, 'body'), { id: 1, name: 'lamp' }, 'body');
    },
  },
  {
    name: 'query: single and repeated parameters arrive decoded',
    async run(target) {
      const res = await request(target, '/search?q=a%20b%26c&tag=x&tag=y');
      equal(res.status, 200, 'status');
      equal(await json(res, 'body'), { q: 'a b&c', tags: ['x', 'y'] }, 'body');
    },
  },
  {
    name: 'params: a parameter its schema refuses is a 422 problem naming params.id',
    async run(target) {
      const body = await expectProblem(await request(target, '/items/abc'), 422, 'GET /items/abc');
      const issues = body.issues as Array<{ in?: string; path?: unknown }> | undefined;
      ok(Array.isArray(issues) && issues.length > 0, 'issues listed');
      equal(issues?.[0]?.in, 'params', 'issue location');
      equal(issues?.[0]?.path, ['id'], 'issue path');
    },
  },
  {
    name: '404: an unknown path is a not-found problem',
    async run(target) {
      const body = await expectProblem(await request(target, '/no/such/route'), 404, 'GET /no/such/route');
      equal(body.type, 'https://charter.dev/errors/not-found', 'type');
    },
  },
  {
    name: '405: a method the path does not declare is a problem with Allow',
    async run(target) {
      const res = await request(target, '/items/1', { method: 'DELETE' });
      const allow = res.headers.get('allow');
      await expectProblem(res, 405, 'DELETE /items/1');
      equal(allow, 'GET, HEAD', 'allow');
    },
  },
  {
    name: '422: a body its schema refuses is a validation problem naming body.name',
    async run(target) {
      const res = await request(target, '/items', {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ name: 42 }),
      });
      const body = await expectProblem(res, 422, 'POST /items');
      equal(body.type, 'https://charter.dev/errors/validation', 'type');
      const issues = body.issues as Array<{ in?: string; path?: unknown }>;
      equal(issues?.[0]?.in, 'body', 'issue location');
      equal(issues?.[0]?.path, ['name'], 'issue path');
    },
  },
  {
    name: '413: a body over bodyLimitBytes is a payload-too-large problem',
    async run(target) {
      const name = 'x'.repeat(BEHAVIOUR_LIMITS.bodyLimitBytes * 4);
      const res = await request(target, '/items', {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ name }),
      });
      const body = await expectProblem(res, 413, 'POST /items (4 KiB)');
      equal(body.type, 'https://charter.dev/errors/payload-too-large', 'type');
    },
  },
  {
    name: 'timeout: a route slower than requestTimeoutMs gets the 408 problem',
    async run(target) {
      const body = await expectProblem(await request(target, '/slow'), 408, 'GET /slow');
      equal(body.type, 'https://charter.dev/errors/request-timeout', 'type');
    },
  },
  {
    name: 'secure headers: set on a route answer and on a problem, no X-Powered-By',
    async run(target) {
      const ok200 = await request(target, '/items/1');
      expectSecureHeaders(ok200, 'GET /items/1');
      await ok200.body?.cancel();
      const missing = await request(target, '/missing');
      expectSecureHeaders(missing, 'GET /missing');
      await missing.body?.cancel();
    },
  },
  {
    name: 'problem document: an HttpError thrown by a handler keeps its detail',
    async run(target) {
      const res = await request(target, '/conflict');
      equal(res.headers.get('cache-control'), 'no-store', 'cache-control');
      const body = await expectProblem(res, 409, 'GET /conflict');
      equal(
        body,
        {
          type: 'https://charter.dev/errors/conflict',
          title: 'Conflict',
          status: 409,
          detail: 'The item is locked',
        },
        'body',
      );
    },
  },
  {
    name: 'problem document: an unexpected error is a redacted 500',
    async run(target) {
      const res = await request(target, '/crash');
      const text = await res.clone().text();
      ok(!text.includes('secret internal detail'), 'the error message stays on the server');
      const body = await expectProblem(res, 500, 'GET /crash');
      equal(Object.keys(body).sort(), ['status', 'title', 'type'], 'members');
    },
  },
  {
    name: 'cookies: the Cookie header arrives, two Set-Cookie fields stay apart',
    async run(target) {
      const res = await request(target, '/cookies', { headers: { cookie: 'x=1; y=2' } });
      equal(res.status, 200, 'status');
      equal(res.headers.getSetCookie(), ['a=1; Path=/; HttpOnly', 'b=2; Path=/; Secure'], 'set-cookie');
      equal(await json(res, 'body'), { received: 'x=1; y=2' }, 'body');
    },
  },
  {
    name: 'streaming: an SSE route sends its first event before the stream ends',
    async run(target) {
      const res = await request(target, '/events', { headers: { accept: 'text/event-stream' } });
      equal(res.status, 200, 'status');
      ok(
        (res.headers.get('content-type') ?? '').startsWith('text/event-stream'),
        `content-type is text/event-stream (got ${res.headers.get('content-type')})`,
      );
      const reader = res.body?.getReader() ?? fail('no body');
      const decoder = new TextDecoder();
      let text = '';
      // The route waits SSE_GAP_MS before its second event: the first must arrive on its own. (A
      // comment line, `:`, may come first: it opens the stream through buffering proxies.)
      const firstEventEnd = (): boolean => {
        const start = text.indexOf('event: greeting');
        return start >= 0 && text.indexOf('\n\n', start) >= 0;
      };
      while (!firstEventEnd()) {
        const { done, value } = await reader.read();
        if (done) fail(`the stream ended before a whole event: ${JSON.stringify(text)}`);
        text += decoder.decode(value, { stream: true });
      }
      ok(
        text.includes('event: greeting\n') && text.includes('id: 1\n') && text.includes('data: {"n":1}\n'),
        `first event framed as SSE: ${JSON.stringify(text)}`,
      );
      ok(!text.includes('"n":2'), 'the second event was not sent with the first (the body is streamed)');
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      ok(text.includes('id: 2\ndata: {"n":2}\n\n'), `second event follows: ${JSON.stringify(text)}`);
    },
  },
  {
    name: 'typed client: calls the operations and sees a refused call as UnexpectedStatusError',
    async run(target) {
      const client = createClient(contract, { baseUrl: target.baseUrl, fetch: (r) => target.fetch(r) });
      const got = await client.getItem({ params: { id: 3 } });
      equal(got.status, 200, 'getItem status');
      equal(got.body, { id: 3, name: 'item 3' }, 'getItem body');
      const created = await client.createItem({ body: { name: 'desk' } });
      equal(created.status, 201, 'createItem status');
      equal(created.headers.get('location'), '/items/1', 'createItem location');
      equal(created.body, { id: 1, name: 'desk' }, 'createItem body');
      const found = await client.search({ query: { q: 'z', tag: ['p', 'q'] } });
      equal(found.body, { q: 'z', tags: ['p', 'q'] }, 'search body');
      try {
        await client.createItem({ body: { name: '' } });
        fail('createItem with an empty name should have thrown');
      } catch (error) {
        if (!(error instanceof UnexpectedStatusError)) throw error;
        equal(error.status, 422, 'refused call status');
        equal(
          (error.body as { type?: string }).type,
          'https://charter.dev/errors/validation',
          'problem type',
        );
      }
    },
  },
];

/** Runs the checks in order (each one even when an earlier one failed) and reports each outcome. */
export async function runBehaviourChecks(
  target: BehaviourTarget,
  checks: readonly BehaviourCheck[] = behaviourChecks,
): Promise<BehaviourResult[]> {
  const results: BehaviourResult[] = [];
  for (const check of checks) {
    try {
      await check.run(target);
      results.push({ name: check.name, ok: true });
    } catch (error) {
      results.push({
        name: check.name,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}

/**
 * The property-based mode of runContractTests (issue 19, item 3): it finds a planted mismatch of each
 * kind (undeclared status, media type not listed, body off its schema, missing required header), each
 * with a request that replays it; it passes clean on a correct app; the same seed sends the same requests.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { bearer, httpBearerScheme, rateLimit } from '@charter/core';
import { type FuzzRequest, replayRequest, runContractTests } from '@charter/client';
import { type } from 'arktype';

const Todo = type({ id: 'number.integer', title: '0 < string <= 40', done: 'boolean' });

/** A correct app: params, query, headers, bodies, auth and a rate limit, all documented. */
function correctApp(): App {
  const app = new App({
    logger: false,
    openapi: true,
    securitySchemes: { bearer: httpBearerScheme() },
  });
  app.use(rateLimit({ windowMs: 60_000, max: 1_000_000 }));
  app.get(
    '/todos/:id',
    {
      operationId: 'getTodo',
      request: { params: type({ id: 'number.integer > 0' }), query: type({ 'verbose?': 'boolean' }) },
      responses: {
        200: { body: Todo, headers: { etag: { schema: type('string'), required: true } } },
        404: {},
      },
    },
    (ctx) =>
      ctx.params.id > 100
        ? { status: 404 }
        : { status: 200, body: { id: ctx.params.id, title: 'Read', done: false }, headers: { etag: '"v1"' } },
  );
  app.post(
    '/todos',
    {
      operationId: 'createTodo',
      request: {
        body: type({ title: '0 < string <= 40', 'done?': 'boolean' }),
        headers: type({ 'x-tenant?': '/^[a-z]{1,8}$/' }),
      },
      responses: { 201: { body: Todo } },
    },
    (ctx) => ({ status: 201, body: { id: 1, title: ctx.body.title, done: ctx.body.done ?? false } }),
  );
  app.get(
    '/me',
    {
      operationId: 'getMe',
      auth: { scheme: 'bearer' },
      hooks: bearer({ verify: (token) => (token === 'good' ? { sub: 'me' } : undefined) }),
      responses: { 200: { body: type({ sub: 'string' }) } },
    },
    (ctx) => ({ status: 200, body: { sub: String(ctx.state.user?.sub) } }),
  );
  app.get('/greeting', { operationId: 'greet', responses: { 200: { body: type('string') } } }, () => ({
    status: 200,
    body: 'hello',
  }));
  return app;
}

/** An app with one mismatch of the given kind on GET /planted, and nothing else wrong. */
function plantedApp(kind: 'status' | 'media' | 'body' | 'header'): App {
  const app = new App({ logger: false, openapi: true, validateResponses: kind !== 'body' });
  const Item = type({ name: 'string' });
  if (kind === 'status') {
    // A guard hook answers a status the route does not declare.
    app.get(
      '/planted',
      {
        operationId: 'planted',
        responses: { 200: { body: Item } },
        hooks: { beforeHandle: () => new Response(null, { status: 418 }) },
      },
      () => ({ status: 200, body: { name: 'x' } }),
    );
  } else if (kind === 'media') {
    app.get(
      '/planted',
      { operationId: 'planted', responses: { 200: { body: Item } }, acknowledgeNoResponseBodySchema: true },
      () => new Response('<p>x</p>', { status: 200, headers: { 'content-type': 'text/html' } }),
    );
  } else if (kind === 'body') {
    app.get('/planted', { operationId: 'planted', responses: { 200: { body: Item } } }, () => ({
      status: 200,
      body: { name: 42 } as never,
    }));
  } else {
    app.get(
      '/planted',
      {
        operationId: 'planted',
        responses: {
          200: { body: Item, headers: { 'x-version': { schema: type('string'), required: true } } },
        },
      },
      () => ({ status: 200, body: { name: 'x' } }),
    );
  }
  return app;
}

describe('runContractTests fuzz mode: planted mismatches', () => {
  const cases = [
    ['status', 'undeclared-status', /answered 418/],
    ['media', 'media-type-not-listed', /text\/html/],
    ['body', 'body-off-schema', /\.name must be string/],
    ['header', 'missing-header', /x-version/],
  ] as const;

  for (const [kind, code, message] of cases) {
    test(`finds ${code}, with a request that replays it`, async () => {
      const app = plantedApp(kind);
      const report = await runContractTests(app, { fuzz: { requestsPerRoute: 5 } });
      expect(report.ok).toBe(false);
      const found = report.issues.filter((issue) => issue.code === code);
      expect(found.length).toBeGreaterThan(0);
      const issue = found[0];
      expect(issue?.route).toBe('/planted');
      expect(issue?.method).toBe('GET');
      expect(issue?.message).toMatch(message);
      // Every other code stays quiet: the planted kind is the only thing wrong.
      expect(new Set(report.issues.map((i) => i.code))).toEqual(new Set([code]));
      const request = issue?.request as FuzzRequest;
      expect(request).toMatchObject({ method: 'GET', seed: 1, origin: 'http://localhost' });
      expect(request.url).toStartWith('/planted');
      const replayed = await app.fetch(replayRequest(request));
      if (kind === 'status') expect(replayed.status).toBe(418);
      if (kind === 'media') expect(replayed.headers.get('content-type')).toBe('text/html');
      if (kind === 'body') expect(await replayed.json()).toEqual({ name: 42 });
      if (kind === 'header') expect(replayed.headers.get('x-version')).toBeNull();
    });
  }

  test('a crash is an undeclared 500 with the problem title in the message', async () => {
    const app = new App({ logger: false, openapi: true });
    app.get('/boom', { operationId: 'boom', responses: { 204: {} } }, () => {
      throw new Error('kaboom');
    });
    const report = await runContractTests(app, { fuzz: { requestsPerRoute: 2 } });
    expect(report.issues[0]).toMatchObject({ code: 'undeclared-status', route: '/boom' });
    expect(report.issues[0]?.message).toContain('answered 500');
  });

  test('a header off its schema is reported', async () => {
    const app = new App({ logger: false, openapi: true });
    app.get(
      '/h',
      {
        operationId: 'h',
        responses: { 204: { headers: { 'x-count': { schema: type('number.integer') } } } },
      },
      () => ({ status: 204, headers: { 'x-count': 'many' } }),
    );
    const report = await runContractTests(app, { fuzz: { requestsPerRoute: 2 } });
    expect(report.issues.map((i) => i.code)).toContain('header-off-schema');
  });
});

describe('runContractTests fuzz mode: a correct app', () => {
  test('passes with zero findings, having sent valid and invalid requests to every operation', async () => {
    const statuses = new Map<string, Set<number>>();
    const report = await runContractTests(correctApp(), {
      fuzz: {
        seed: 3,
        requestsPerRoute: 60,
        observe: (request, answer) => {
          const key = `${request.method} ${request.url.split('?')[0]?.replace(/\/todos\/.*/, '/todos/:id')}`;
          const seen = statuses.get(key) ?? new Set<number>();
          seen.add(answer.status);
          statuses.set(key, seen);
        },
      },
    });
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.fuzz?.findings).toEqual([]);
    expect(report.fuzz?.routes).toBe(4);
    expect(report.fuzz?.requests).toBeGreaterThan(100);
    // The invalid requests reached the framework's own answers, which the document lists.
    expect([...(statuses.get('GET /todos/:id') ?? [])]).toEqual(expect.arrayContaining([200, 400, 422]));
    expect([...(statuses.get('POST /todos') ?? [])]).toEqual(expect.arrayContaining([201, 400, 415, 422]));
    expect([...(statuses.get('GET /me') ?? [])]).toEqual(expect.arrayContaining([401]));
  });

  test('fuzz.headers authenticate the requests, reaching the handler behind auth', async () => {
    const statuses = new Set<number>();
    const report = await runContractTests(correctApp(), {
      fuzz: {
        requestsPerRoute: 8,
        headers: { authorization: 'Bearer good' },
        observe: (request, answer) => {
          if (request.url === '/me' && request.valid) statuses.add(answer.status);
        },
      },
    });
    expect(report.ok).toBe(true);
    expect([...statuses]).toEqual([200]);
  });

  test('an event stream that never ends is judged on its status and media type, without waiting', async () => {
    const app = new App({ logger: false, openapi: true });
    app.get(
      '/events',
      {
        operationId: 'events',
        responses: { 200: { contentType: 'text/event-stream' } },
        acknowledgeNoResponseBodySchema: true,
      },
      () =>
        new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const report = await runContractTests(app, { fuzz: { requestsPerRoute: 5 } });
    expect(report.issues).toEqual([]);
    expect(report.fuzz?.requests).toBe(5);
  });

  test('a path parameter with no schema beyond "a string" is a warning, an issue only when strict', async () => {
    const app = new App({ logger: false, openapi: true });
    app.get('/notes/:slug', { operationId: 'note', responses: { 204: {} } }, () => ({ status: 204 }));
    app.get(
      '/tags/:tag',
      { operationId: 'tag', request: { params: type({ tag: '0 < string <= 20' }) }, responses: { 204: {} } },
      () => ({ status: 204 }),
    );
    const loose = await runContractTests(app, { fuzz: { requestsPerRoute: 2 } });
    expect(loose.fuzz?.warnings.map((w) => `${w.route} ${w.code}`)).toEqual([
      '/notes/{slug} parameter-without-schema',
    ]);
    expect(loose.fuzz?.findings).toEqual([]);
    const strict = await runContractTests(app, { fuzz: { requestsPerRoute: 2, strict: true } });
    expect(strict.issues.map((i) => i.code)).toContain('parameter-without-schema');
  });

  test('warnings are not issues unless strict', async () => {
    const app = new App({ logger: false, openapi: true });
    app.get(
      '/w',
      { operationId: 'w', responses: { 200: { body: type('string'), headers: { 'x-maybe': {} } } } },
      () => ({ status: 200, body: 'ok' }),
    );
    const loose = await runContractTests(app, { fuzz: { requestsPerRoute: 3 } });
    expect(loose.ok).toBe(true);
    expect(loose.fuzz?.warnings.map((w) => w.code)).toContain('documented-header-absent');
    const strict = await runContractTests(app, { fuzz: { requestsPerRoute: 3, strict: true } });
    expect(strict.ok).toBe(false);
    expect(strict.issues.map((i) => i.code)).toContain('documented-header-absent');
  });
});

describe('runContractTests fuzz mode: determinism and options', () => {
  async function sent(seed: number): Promise<FuzzRequest[]> {
    const requests: FuzzRequest[] = [];
    await runContractTests(correctApp(), {
      fuzz: { seed, requestsPerRoute: 20, observe: (request) => void requests.push(request) },
    });
    return requests;
  }

  test('the same seed sends the same requests; another seed sends others', async () => {
    const first = await sent(7);
    expect(await sent(7)).toEqual(first);
    // 20 per operation: operations with fewer fields to break get more valid requests.
    expect(first.length).toBe(80);
    expect(first.every((r) => r.seed === 7)).toBe(true);
    const other = await sent(8);
    expect(other.map((r) => r.url)).not.toEqual(first.map((r) => r.url));
  });

  test('every parameter, header and body member is broken in each way, nested members included', async () => {
    const app = new App({ logger: false, openapi: true });
    app.post(
      '/people/:id',
      {
        operationId: 'putPerson',
        request: {
          params: type({ id: 'number.integer' }),
          query: type({ 'dryRun?': 'boolean' }),
          headers: type({ 'x-tenant?': 'string <= 8' }),
          body: type({ name: 'string <= 20', address: { city: 'string <= 20' } }),
        },
        responses: { 204: {} },
      },
      () => ({ status: 204 }),
    );
    const intents = new Set<string>();
    const report = await runContractTests(app, {
      fuzz: { requestsPerRoute: 500, observe: (request) => void intents.add(request.intent) },
    });
    expect(report.ok).toBe(true);
    for (const field of [
      'path.id',
      'query.dryRun',
      'headers.x-tenant',
      'body.name',
      'body.address',
      'body.address.city',
    ]) {
      for (const how of ['wrong type', 'too long', 'control characters'])
        expect(intents).toContain(`${field}: ${how}`);
    }
    for (const intent of [
      'valid',
      'body: unknown member',
      'body.address: unknown member',
      'body: malformed JSON',
    ]) {
      expect(intents).toContain(intent);
    }
    expect(intents).toContain('query.dryRun: empty');
    expect(intents).not.toContain('path.id: empty');
  });

  test('requestsPerRoute bounds the requests per operation', async () => {
    const report = await runContractTests(correctApp(), { fuzz: { requestsPerRoute: 3 } });
    expect(report.fuzz?.requests).toBe(12);
  });

  test('bad options are refused with a TypeError naming them', async () => {
    const app = correctApp();
    await expect(runContractTests(app, { fuzz: { seed: -1 } })).rejects.toThrow(/fuzz.seed/);
    await expect(runContractTests(app, { fuzz: { requestsPerRoute: 0 } })).rejects.toThrow(
      /fuzz.requestsPerRoute/,
    );
    await expect(runContractTests(app, { fuzz: { origin: 'localhost' } })).rejects.toThrow(/fuzz.origin/);
    await expect(runContractTests(app, { fuzz: { document: 'openapi.json' } })).rejects.toThrow(
      /fuzz.document/,
    );
    await expect(runContractTests(app, { fuzz: { strict: 'yes' as never } })).rejects.toThrow(/fuzz.strict/);
    await expect(runContractTests(app, { fuzz: { seeds: 3 } as never })).rejects.toThrow(
      /fuzz.seeds is not an option \(options: seed, requestsPerRoute/,
    );
  });

  test('an app without a mounted document is told to mount it or pass one', async () => {
    const app = new App({ logger: false });
    app.get('/x', { operationId: 'x', responses: { 204: {} } }, () => ({ status: 204 }));
    await expect(runContractTests(app, { fuzz: true })).rejects.toThrow(/fuzz.document/);
  });
});

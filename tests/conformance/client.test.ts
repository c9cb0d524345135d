/**
 * The typed client (`charter/client`) against a real App, in process (`app.fetch`) and over a real
 * socket (`Bun.serve` on an ephemeral port): the same behaviour suite runs through both.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  createClient,
  createInProcessClient,
  ResponseParseError,
  ResponseValidationError,
  UnexpectedStatusError,
} from '@charter/client';
import { App, NotFoundError, UnauthorizedError } from '@charter/core';
import { type } from 'arktype';

const User = type({ id: 'number.integer', name: 'string' });

/** Echoes what the handler received, so tests can assert what went over the wire. */
function echo(ctx: { request: Request; params: unknown; query: unknown; body: unknown }) {
  return {
    url: ctx.request.url,
    method: ctx.request.method,
    params: ctx.params,
    query: ctx.query,
    body: ctx.body,
    contentType: ctx.request.headers.get('content-type'),
    headers: Object.fromEntries(ctx.request.headers),
  };
}

function buildApp() {
  return new App({ logger: false })
    .get(
      '/users/:id',
      {
        operationId: 'getUser',
        request: { params: type({ id: 'number.integer' }), query: type({ 'fail?': 'boolean' }) },
        responses: { 200: { body: User }, 404: {} },
      },
      (ctx) => {
        if (ctx.params.id === 404) throw new NotFoundError('No user 404');
        return { status: 200, body: { id: ctx.params.id, name: 'Ada' }, headers: { etag: '"v1"' } };
      },
    )
    .post(
      '/users',
      {
        operationId: 'createUser',
        request: { body: type({ name: 'string' }) },
        responses: { 201: { body: User } },
      },
      (ctx) => ({ status: 201, body: { id: 7, name: ctx.body.name }, headers: { location: '/users/7' } }),
    )
    .delete('/users/:id', { operationId: 'deleteUser', responses: { 204: {} } }, () => ({ status: 204 }))
    .head('/users/:id/exists', { operationId: 'userExists', responses: { 200: {} } }, () => ({
      status: 200,
      headers: { 'x-exists': 'yes' },
    }))
    .get('/echo/:name', { operationId: 'echoGet', responses: { 200: {} } }, (ctx) => ({
      status: 200,
      body: echo(ctx),
    }))
    .get('/files/*path', { operationId: 'getFile', responses: { 200: {} } }, (ctx) => ({
      status: 200,
      body: echo(ctx),
    }))
    .post(
      '/echo',
      { operationId: 'echoJson', request: { body: type('unknown') }, responses: { 200: {} } },
      (ctx) => ({ status: 200, body: echo(ctx) }),
    )
    .post(
      '/echo-text',
      {
        operationId: 'echoText',
        request: { body: type('string'), contentTypes: ['text/plain', 'application/json'] },
        responses: { 200: {} },
      },
      (ctx) => ({ status: 200, body: echo(ctx) }),
    )
    .post(
      '/echo-form',
      {
        operationId: 'echoForm',
        request: { body: type({ name: 'string' }) },
        responses: { 200: {} },
      },
      (ctx) => ({ status: 200, body: echo(ctx) }),
    )
    .post(
      '/echo-raw',
      {
        operationId: 'echoRaw',
        request: { contentTypes: ['application/octet-stream'] },
        responses: { 200: {} },
      },
      async (ctx) => ({
        status: 200,
        body: { text: await ctx.request.text(), contentType: ctx.request.headers.get('content-type') },
      }),
    )
    .get('/private', { operationId: 'getPrivate', responses: { 200: {} } }, () => {
      throw new UnauthorizedError('Sign in first');
    })
    .get('/crash', { operationId: 'crash', responses: { 200: {} } }, () => {
      throw new Error('boom');
    })
    .get(
      '/text',
      { operationId: 'getText', responses: { 200: { contentType: 'text/plain; charset=utf-8' } } },
      () => ({ status: 200, body: 'plain words' }),
    )
    .get(
      '/bytes',
      { operationId: 'getBytes', responses: { 200: { contentType: 'application/octet-stream' } } },
      () => ({ status: 200, body: new Uint8Array([1, 2, 3]) }),
    )
    .get('/empty', { operationId: 'getEmpty', responses: { 200: {} } }, () => ({ status: 200 }))
    .get(
      '/broken-json',
      { operationId: 'brokenJson', responses: { 200: {} }, acknowledgeNoResponseBodySchema: true },
      () => new Response('{"a":', { headers: { 'content-type': 'application/json' } }),
    )
    .get(
      '/drifted',
      { operationId: 'drifted', responses: { 200: { body: User } }, acknowledgeNoResponseBodySchema: true },
      () => Response.json({ id: 'not-a-number', name: 'Ada' }),
    );
}

type TestApp = ReturnType<typeof buildApp>;

interface Transport {
  name: string;
  client(app: TestApp, headers?: Record<string, string>): ReturnType<typeof createInProcessClient<TestApp>>;
  setup?(): void;
  teardown?(): void;
}

const app = buildApp();
let server: ReturnType<typeof Bun.serve> | undefined;

const transports: Transport[] = [
  {
    name: 'in process',
    client: (a, headers) => createInProcessClient(a, headers === undefined ? {} : { headers }),
  },
  {
    name: 'over Bun.serve',
    client: (a, headers) =>
      createClient(a, {
        baseUrl: `http://127.0.0.1:${server?.port}`,
        ...(headers === undefined ? {} : { headers }),
      }),
  },
];

beforeAll(() => {
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
});
afterAll(async () => {
  await server?.stop(true);
});

for (const transport of transports) {
  describe(`client ${transport.name}: declared responses`, () => {
    test('a GET with a path parameter resolves the declared status, headers and typed body', async () => {
      const client = transport.client(app);
      const res = await client.getUser({ params: { id: 42 } });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe('"v1"');
      expect(res.headers.get('content-type')).toBe('application/json');
      if (res.status !== 200) throw new Error('narrowing');
      expect(res.body).toEqual({ id: 42, name: 'Ada' });
    });

    test('a declared error status resolves with its problem body', async () => {
      const res = await transport.client(app).getUser({ params: { id: 404 } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status: 404, detail: 'No user 404' });
    });

    test('a POST sends its body as JSON and resolves 201 with the location header', async () => {
      const res = await transport.client(app).createUser({ body: { name: 'Grace' } });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe('/users/7');
      expect(res.body).toEqual({ id: 7, name: 'Grace' });
    });

    test('204 and HEAD resolve with an undefined body', async () => {
      const client = transport.client(app);
      const deleted = await client.deleteUser({ params: { id: 'u1' } });
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      const head = await client.userExists({ params: { id: 'u1' } });
      expect(head.status).toBe(200);
      expect(head.headers.get('x-exists')).toBe('yes');
      expect(head.body).toBeUndefined();
    });

    test('a text/* body resolves as text, other media types as a Blob, no content as undefined', async () => {
      const client = transport.client(app);
      const text = await client.getText();
      expect(text.status).toBe(200);
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(text.body).toBe('plain words');
      const bytes = await client.getBytes();
      expect(bytes.status).toBe(200);
      expect(bytes.body).toBeInstanceOf(Blob);
      expect([...new Uint8Array(await (bytes.body as Blob).arrayBuffer())]).toEqual([1, 2, 3]);
      const empty = await client.getEmpty();
      expect(empty.status).toBe(200);
      expect(empty.body).toBeUndefined();
    });

    test('a JSON content type over invalid JSON rejects with a ResponseParseError', async () => {
      const error = await transport
        .client(app)
        .brokenJson()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseParseError);
      expect((error as ResponseParseError).status).toBe(200);
      expect((error as Error).message).toContain('brokenJson');
      expect((error as Error).message).toContain('not valid JSON');
    });
  });

  describe(`client ${transport.name}: undeclared statuses`, () => {
    test('a 422 from validation rejects with UnexpectedStatusError carrying the problem', async () => {
      const error = await transport
        .client(app)
        .getUser({ params: { id: 'abc' as never } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedStatusError);
      const unexpected = error as UnexpectedStatusError;
      expect(unexpected.status).toBe(422);
      expect(unexpected.operationId).toBe('getUser');
      expect(unexpected.headers.get('content-type')).toBe('application/problem+json');
      expect(unexpected.body).toMatchObject({ status: 422 });
      expect(unexpected.message).toContain('422');
      expect(unexpected.message).toContain('declared: 200, 404');
    });

    test('a 401 from an auth check rejects with UnexpectedStatusError', async () => {
      const error = (await transport
        .client(app)
        .getPrivate()
        .catch((e: unknown) => e)) as UnexpectedStatusError;
      expect(error).toBeInstanceOf(UnexpectedStatusError);
      expect(error.status).toBe(401);
      expect(error.body).toMatchObject({ status: 401, detail: 'Sign in first' });
    });

    test('a 500 rejects with UnexpectedStatusError', async () => {
      const error = (await transport
        .client(app)
        .crash()
        .catch((e: unknown) => e)) as UnexpectedStatusError;
      expect(error).toBeInstanceOf(UnexpectedStatusError);
      expect(error.status).toBe(500);
      expect(error.body).toMatchObject({ status: 500 });
    });
  });

  describe(`client ${transport.name}: requests`, () => {
    test('path parameters are percent-encoded whole segments and arrive decoded', async () => {
      const res = await transport.client(app).echoGet({ params: { name: 'a b?c#d%e ü' } });
      const body = res.body as ReturnType<typeof echo>;
      expect(res.status).toBe(200);
      expect(body.params).toEqual({ name: 'a b?c#d%e ü' });
      expect(new URL(body.url).pathname).toBe('/echo/a%20b%3Fc%23d%25e%20%C3%BC');
    });

    test('a wildcard takes /-separated segments, each encoded', async () => {
      const res = await transport.client(app).getFile({ params: { path: 'docs/a b/read me.txt' } });
      const body = res.body as ReturnType<typeof echo>;
      expect(body.params).toEqual({ path: 'docs/a b/read me.txt' });
      expect(new URL(body.url).pathname).toBe('/files/docs/a%20b/read%20me.txt');
    });

    test('query arrays repeat the key, undefined is left out, Dates are ISO text', async () => {
      const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
      const res = await transport.client(app).echoGet({
        params: { name: 'q' },
        query: { tag: ['a', 'b'], n: 1.5, yes: true, at, skip: undefined, text: 'x&y=z' },
      });
      const body = res.body as ReturnType<typeof echo>;
      expect(body.query).toEqual({
        tag: ['a', 'b'],
        n: '1.5',
        yes: 'true',
        at: '2024-01-02T03:04:05.000Z',
        text: 'x&y=z',
      });
    });

    test('option headers are sent, and a call header of the same name wins', async () => {
      const client = transport.client(app, { 'x-team': 'core', 'x-trace': 'option' });
      const res = await client.echoGet({ params: { name: 'h' }, headers: { 'x-trace': 'call' } });
      const body = res.body as ReturnType<typeof echo>;
      expect(body.headers['x-team']).toBe('core');
      expect(body.headers['x-trace']).toBe('call');
    });

    test('object bodies go as JSON; a string goes as JSON unless the route accepts text/plain', async () => {
      const client = transport.client(app);
      const json = (await client.echoJson({ body: { a: [1, 2] } })).body as ReturnType<typeof echo>;
      expect(json.contentType).toBe('application/json');
      expect(json.body).toEqual({ a: [1, 2] });
      const quoted = (await client.echoJson({ body: 'hi' })).body as ReturnType<typeof echo>;
      expect(quoted.contentType).toBe('application/json');
      expect(quoted.body).toBe('hi');
      const text = (await client.echoText({ body: 'hi' })).body as ReturnType<typeof echo>;
      expect(text.contentType).toBe('text/plain;charset=UTF-8');
      expect(text.body).toBe('hi');
    });

    test('a string body under a caller Content-Type goes as it is', async () => {
      const res = await transport.client(app).echoJson({
        body: '{"pre":"encoded"}',
        headers: { 'content-type': 'application/json' },
      });
      expect((res.body as ReturnType<typeof echo>).body).toEqual({ pre: 'encoded' });
    });

    test('FormData, URLSearchParams, Blob and streams are sent as they are', async () => {
      const client = transport.client(app);
      const form = new FormData();
      form.set('name', 'multipart');
      const multipart = (await client.echoForm({ body: form })).body as ReturnType<typeof echo>;
      expect(multipart.contentType).toStartWith('multipart/form-data; boundary=');
      expect(multipart.body).toEqual({ name: 'multipart' });
      const urlencoded = (await client.echoForm({ body: new URLSearchParams({ name: 'form' }) }))
        .body as ReturnType<typeof echo>;
      expect(urlencoded.contentType).toStartWith('application/x-www-form-urlencoded');
      expect(urlencoded.body).toEqual({ name: 'form' });
      const blob = await client.echoRaw({
        body: new Blob(['blob bytes'], { type: 'application/octet-stream' }),
      });
      expect(blob.body).toEqual({ text: 'blob bytes', contentType: 'application/octet-stream' });
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('streamed'));
          controller.close();
        },
      });
      const streamed = await client.echoRaw({
        body: stream,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(streamed.body).toEqual({ text: 'streamed', contentType: 'application/octet-stream' });
    });
  });
}

describe('client: validateResponses', () => {
  test('by default a declared response is not checked against its schema', async () => {
    const res = await createInProcessClient(app).drifted();
    expect(res.status).toBe(200);
    expect(res.body as unknown).toEqual({ id: 'not-a-number', name: 'Ada' });
  });

  test('with validateResponses a body that fails its schema rejects with ResponseValidationError', async () => {
    const error = (await createInProcessClient(app, { validateResponses: true })
      .drifted()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.operationId).toBe('drifted');
    expect(error.issues.map((i) => i.path)).toContainEqual(['id']);
    expect(error.body).toEqual({ id: 'not-a-number', name: 'Ada' });
  });

  test('with validateResponses a valid body resolves', async () => {
    const res = await createInProcessClient(app, { validateResponses: true }).getUser({ params: { id: 1 } });
    expect(res.body).toEqual({ id: 1, name: 'Ada' });
  });
});

/** A client whose fetch records requests and answers 200 `{}` without any server. */
function spyClient(baseUrl: string | URL = 'https://api.example.com') {
  const requests: Request[] = [];
  const client = createClient(app, {
    baseUrl,
    fetch: async (request) => {
      requests.push(request);
      return Response.json({});
    },
  });
  return { client, requests };
}

describe('client: refusals before any request', () => {
  const refused: Array<[string, (c: ReturnType<typeof spyClient>['client']) => Promise<unknown>, string]> = [
    ['a missing path parameter', (c) => c.echoGet({} as never), 'path parameter "name" is missing'],
    [
      'no argument at all',
      (c) => (c.echoGet as () => Promise<unknown>)(),
      'path parameter "name" is missing',
    ],
    ['an undefined parameter', (c) => c.echoGet({ params: { name: undefined as never } }), 'is missing'],
    ['a null parameter', (c) => c.echoGet({ params: { name: null as never } }), 'is missing'],
    ['an empty parameter', (c) => c.echoGet({ params: { name: '' } }), 'is empty'],
    ['the "." parameter', (c) => c.echoGet({ params: { name: '.' } }), 'dot segment "."'],
    ['the ".." parameter', (c) => c.echoGet({ params: { name: '..' } }), 'dot segment ".."'],
    ['a "/" in a parameter', (c) => c.echoGet({ params: { name: 'a/b' } }), 'contains "/"'],
    ['a backslash in a parameter', (c) => c.echoGet({ params: { name: 'a\\b' } }), 'backslash'],
    ['a control character', (c) => c.echoGet({ params: { name: 'a\nb' } }), 'control character'],
    ['a lone surrogate', (c) => c.echoGet({ params: { name: '\ud800' } }), 'unpaired UTF-16 surrogate'],
    [
      'an object parameter',
      (c) => c.echoGet({ params: { name: {} as never } }),
      'must be a string or a number',
    ],
    ['a NaN parameter', (c) => c.echoGet({ params: { name: Number.NaN } }), 'not a finite number'],
    ['an empty wildcard', (c) => c.getFile({ params: { path: '' } }), 'path parameter "path" is empty'],
    [
      'a wildcard with an empty segment',
      (c) => c.getFile({ params: { path: 'a//b' } }),
      'segment that is empty',
    ],
    [
      'a wildcard with a leading slash',
      (c) => c.getFile({ params: { path: '/a' } }),
      'segment that is empty',
    ],
    ['a wildcard with a ".." segment', (c) => c.getFile({ params: { path: 'a/../b' } }), 'dot segment ".."'],
    ['a wildcard with a "." segment', (c) => c.getFile({ params: { path: './a' } }), 'dot segment "."'],
    [
      'a null query value',
      (c) => c.echoGet({ params: { name: 'a' }, query: { q: null as never } }),
      'got null',
    ],
    [
      'an object query value',
      (c) => c.echoGet({ params: { name: 'a' }, query: { q: {} as never } }),
      'got object',
    ],
    [
      'a nested query array',
      (c) => c.echoGet({ params: { name: 'a' }, query: { q: [['x']] as never } }),
      'nested array',
    ],
    [
      'a NaN query value',
      (c) => c.echoGet({ params: { name: 'a' }, query: { q: Number.NaN } }),
      'not a finite',
    ],
    [
      'an invalid Date',
      (c) => c.echoGet({ params: { name: 'a' }, query: { q: new Date(Number.NaN) } }),
      'invalid Date',
    ],
    [
      'a query that is not an object',
      (c) => c.echoGet({ params: { name: 'a' }, query: 'a=1' as never }),
      'query must be an object',
    ],
    [
      'a number header',
      (c) => c.echoGet({ params: { name: 'a' }, headers: { 'x-n': 1 as never } }),
      'header "x-n" must be a string',
    ],
    [
      'a header value with a newline',
      (c) => c.echoGet({ params: { name: 'a' }, headers: { 'x-n': 'a\nb' } }),
      'not a valid field',
    ],
    [
      'a body on a GET',
      (c) => c.echoGet({ params: { name: 'a' }, body: {} as never }),
      'cannot carry a body',
    ],
    ['a body JSON cannot encode', (c) => c.echoJson({ body: { n: 1n } }), 'cannot be encoded as JSON'],
    [
      'an unknown argument member',
      (c) => c.echoGet({ params: { name: 'a' }, parms: {} } as never),
      'unknown argument member "parms"',
    ],
    ['an argument that is not an object', (c) => c.getEmpty('x' as never), 'the argument must be an object'],
  ];
  for (const [what, call, message] of refused) {
    test(`${what} rejects with a TypeError and sends nothing`, async () => {
      const { client, requests } = spyClient();
      const error = await call(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(message);
      expect(requests).toHaveLength(0);
    });
  }

  test('the TypeError names the operation', async () => {
    const { client } = spyClient();
    await expect(client.echoGet({ params: { name: '..' } })).rejects.toThrow(
      /^echoGet: path parameter "name"/,
    );
  });

  const badBaseUrls: Array<[string, unknown, string]> = [
    ['a relative URL', '/api', 'not a URL'],
    ['an ftp URL', 'ftp://files.example.com', 'the scheme is ftp'],
    ['a URL with a query', 'https://api.example.com/?v=1', 'query or a fragment'],
    ['a URL with an empty query', 'https://api.example.com/api?', 'query or a fragment'],
    ['a URL with a fragment', 'https://api.example.com/#top', 'query or a fragment'],
    ['a URL with credentials', 'https://user:pw@api.example.com', 'credentials'],
    ['a number', 8080, 'not a string'],
    ['a missing baseUrl', undefined, 'not a string'],
  ];
  for (const [what, baseUrl, message] of badBaseUrls) {
    test(`createClient refuses ${what} as baseUrl`, () => {
      expect(() => createClient(app, { baseUrl: baseUrl as string })).toThrow(TypeError);
      expect(() => createClient(app, { baseUrl: baseUrl as string })).toThrow(message);
    });
  }

  test('createClient refuses bad options', () => {
    expect(() => createClient(app, { baseUrl: 'https://a.example', fetch: 1 as never })).toThrow(
      'Client option fetch must be a function',
    );
    expect(() =>
      createClient(app, { baseUrl: 'https://a.example', validateResponses: 'yes' as never }),
    ).toThrow('validateResponses must be a boolean');
    expect(() => createClient(app, { baseUrl: 'https://a.example', headers: { 'x-a': 1 as never } })).toThrow(
      'Client option headers: header "x-a" must be a string',
    );
    expect(() => createClient({} as never, { baseUrl: 'https://a.example' })).toThrow(
      'must be a Charter App',
    );
    expect(() => createInProcessClient({} as never)).toThrow('must be a Charter App');
    expect(() => createInProcessClient(app, { baseUrl: 'file:///x' })).toThrow('the scheme is file');
  });
});

describe('client: base URL and transport', () => {
  test('a base URL path prefix is kept in front of the route path', async () => {
    for (const base of [
      'https://api.example.com/v1',
      'https://api.example.com/v1/',
      new URL('https://api.example.com/v1'),
    ]) {
      const { client, requests } = spyClient(base);
      await client.getFile({ params: { path: 'a/b' } });
      expect(requests[0]?.url).toBe('https://api.example.com/v1/files/a/b');
      expect(requests[0]?.method).toBe('GET');
    }
  });

  test('an in-process client uses http://charter.local by default, and accepts another base', async () => {
    const local = (await createInProcessClient(app).echoGet({ params: { name: 'x' } })).body as ReturnType<
      typeof echo
    >;
    expect(local.url).toBe('http://charter.local/echo/x');
    const other = (
      await createInProcessClient(app, { baseUrl: 'https://internal.example' }).echoGet({
        params: { name: 'x' },
      })
    ).body as ReturnType<typeof echo>;
    expect(other.url).toBe('https://internal.example/echo/x');
  });

  test('a network error propagates as fetch raised it', async () => {
    const failure = new TypeError('connection refused (simulated)');
    const client = createClient(app, {
      baseUrl: 'https://api.example.com',
      fetch: () => Promise.reject(failure),
    });
    expect(await client.getEmpty().catch((e: unknown) => e)).toBe(failure);
  });

  test('a closed port rejects with the runtime fetch error, not an UnexpectedStatusError', async () => {
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
    const port = probe.port;
    await probe.stop(true);
    const error = await createClient(app, { baseUrl: `http://127.0.0.1:${port}` })
      .getEmpty()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnexpectedStatusError);
  });
});

describe('client: operations', () => {
  test('a route added after the client was created is found on first use', async () => {
    const late = new App({ logger: false });
    const client = createInProcessClient(late) as Record<
      string,
      ((input?: unknown) => Promise<unknown>) | undefined
    >;
    expect(client.later).toBeUndefined();
    late.get('/later', { operationId: 'later', responses: { 200: {} } }, () => ({
      status: 200,
      body: { ok: 1 },
    }));
    expect('later' in client).toBe(true);
    const res = (await client.later?.()) as { status: number; body: unknown };
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: 1 });
  });

  test('a name that is no operation is undefined, so calling it is a TypeError', () => {
    const client = createInProcessClient(app) as unknown as Record<string, unknown>;
    expect(client.nope).toBeUndefined();
    expect(client.toString).toBeUndefined();
    expect(client.then).toBeUndefined();
    expect(() => (client.nope as () => void)()).toThrow(TypeError);
    expect(Object.keys(client)).toContain('getUser');
    expect(Object.keys(client)).not.toContain('nope');
  });

  test('an operationId that is an Object.prototype name works as a method', async () => {
    const odd = new App({ logger: false }).get(
      '/c/:constructor',
      { operationId: 'constructor', responses: { 200: {} } },
      (ctx) => ({ status: 200, body: ctx.params }),
    );
    const client = createInProcessClient(odd);
    const res = await client.constructor({ params: { constructor: 'c1' } });
    expect(res.body).toEqual({ constructor: 'c1' });
    const missing = await client.constructor({ params: {} as never }).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('path parameter "constructor" is missing');
  });
});

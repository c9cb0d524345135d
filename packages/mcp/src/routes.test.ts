import { describe, expect, test } from 'bun:test';
import { App, bearer, type Hooks, hookTraitsOf, InsecureConfigError, REQUIRE_AUTH_META } from '@charter/core';
import { generateOpenAPI } from '@charter/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createMcpHandler, type McpHandler } from './handler.ts';
import type { McpHandlerOptions } from './options.ts';
import { type McpMethodAuth, type McpRoutesOptions, mcpRoutes } from './routes.ts';

const MODERN = '2026-07-28';
const CALL_TOKEN = 'call-token-1';
const DISCOVERY_TOKEN = 'discovery-token-1';

function handlerOf(options: Partial<McpHandlerOptions> = {}): McpHandler {
  return createMcpHandler({
    serverInfo: { name: 'notes', version: '1.0.0' },
    tools: [
      { name: 'echo', description: 'Echo', inputSchema: { type: 'object' }, handler: () => 'echoed' },
      {
        name: 'boom',
        description: 'Fails',
        inputSchema: { type: 'object' },
        handler: () => {
          throw new Error('secret detail');
        },
      },
    ],
    onError: () => {},
    ...options,
  });
}

const callAuth = () => bearer({ verify: (token) => token === CALL_TOKEN });
const discoveryAuth = () => bearer({ verify: (token) => token === DISCOVERY_TOKEN });

function appWith(
  options: McpRoutesOptions,
  appOptions: { env?: 'production' } = {},
  handler = handlerOf(),
): App {
  const app = new App({ logger: false, ...appOptions });
  app.registerRoutes(mcpRoutes('/mcp', handler, options));
  return app;
}

function routeRefusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('mcpRoutes accepted it');
}

interface Post {
  method: string;
  params?: Record<string, unknown>;
  /** Mcp-Method header; default none. */
  label?: string;
  token?: string;
  modern?: boolean;
}

/** A POST of one request; modern ones carry `_meta` and the mirrored headers. */
function post(app: App, { method, params = {}, label, token, modern = false }: Post): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (label !== undefined) headers['mcp-method'] = label;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  let body = params;
  if (modern) {
    headers['mcp-protocol-version'] = MODERN;
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    body = { ...params, _meta };
  }
  return app.request('/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: body }),
  });
}

const echoCall = { method: 'tools/call', params: { name: 'echo', arguments: {} } };

async function expectUnauthorized(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toStartWith('Bearer realm="api"');
  expect(((await response.json()) as { type: string }).type).toBe('https://charter.dev/errors/unauthorized');
}

describe('mcpRoutes definitions', () => {
  test('returns POST, GET and OPTIONS at the path, then DELETE, PUT, PATCH; only POST (the protocol) requires auth', () => {
    const routes = mcpRoutes('/mcp', handlerOf());
    expect(routes.map((route) => [route.method, route.path, route.operationId])).toEqual([
      ['POST', '/mcp', 'mcpPost'],
      ['GET', '/mcp', 'mcpGet'],
      ['OPTIONS', '/mcp', 'mcpOptions'],
      ['DELETE', '/mcp', 'mcpDelete'],
      ['PUT', '/mcp', 'mcpPut'],
      ['PATCH', '/mcp', 'mcpPatch'],
    ]);
    expect(routes.map((route) => route.meta)).toEqual([
      { [REQUIRE_AUTH_META]: true },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Only what Allow lists is an operation of the document (issue 19).
    expect(routes.filter((route) => route.openapi?.exclude !== true).map((route) => route.method)).toEqual([
      'POST',
      'OPTIONS',
    ]);
  });

  test('public: true clears requireAuth; operationIdPrefix and tags are applied', () => {
    const routes = mcpRoutes('/tools', handlerOf(), {
      public: true,
      operationIdPrefix: 'notesTools',
      tags: ['ai'],
    });
    expect(routes.map((route) => route.operationId)).toEqual([
      'notesToolsPost',
      'notesToolsGet',
      'notesToolsOptions',
      'notesToolsDelete',
      'notesToolsPut',
      'notesToolsPatch',
    ]);
    expect(routes[0]?.meta).toEqual({ [REQUIRE_AUTH_META]: false });
    for (const route of routes) expect(route.tags).toEqual(['ai']);
  });

  test('hooks go on POST only, after the origin policy; methodAuth adds one hook set after them', () => {
    const logging: Hooks = { onRequest: () => undefined };
    const [postRoute, getRoute, optionsRoute] = mcpRoutes('/mcp', handlerOf(), { hooks: logging });
    const postHooks = postRoute?.hooks as Hooks[];
    expect(postHooks).toHaveLength(2);
    // First: no phases, only the trait that tells the App's cross-origin guard what the handler admits.
    expect(Object.keys(postHooks[0] as Hooks)).toEqual([]);
    expect(hookTraitsOf(postHooks[0] as Hooks)?.trustsOrigin?.('http://localhost:3000')).toBe(true);
    expect(hookTraitsOf(postHooks[0] as Hooks)?.trustsOrigin?.('https://evil.example')).toBe(false);
    expect(postHooks[1]).toBe(logging);
    expect(getRoute?.hooks).toBeUndefined();
    expect(optionsRoute?.hooks).toBeUndefined();
    expect(mcpRoutes('/mcp', handlerOf())[0]?.hooks).toHaveLength(1);
    const withAuth = mcpRoutes('/mcp', handlerOf(), {
      hooks: [logging],
      methodAuth: { call: callAuth(), discovery: 'public' },
    });
    expect((withAuth[0]?.hooks as Hooks[]).length).toBe(3);
    expect((withAuth[0]?.hooks as Hooks[])[1]).toBe(logging);
    expect(withAuth[1]?.hooks).toBeUndefined();
  });

  test('refuses a bad path, handler, public flag or operationIdPrefix', () => {
    const handler = handlerOf();
    expect(routeRefusal(() => mcpRoutes('mcp', handler))).toBe('mcpRoutes: path must start with "/"');
    expect(routeRefusal(() => mcpRoutes(5 as never, handler))).toBe('mcpRoutes: path must start with "/"');
    expect(routeRefusal(() => mcpRoutes('/mcp', {} as never))).toBe(
      'mcpRoutes: handler must be the function createMcpHandler returned',
    );
    expect(routeRefusal(() => mcpRoutes('/mcp', handler, { public: 'yes' as never }))).toBe(
      'mcpRoutes: option "public" must be a boolean',
    );
    for (const prefix of ['', 'my-tools', '1tools', 'a.b', 5]) {
      expect(routeRefusal(() => mcpRoutes('/mcp', handler, { operationIdPrefix: prefix as never }))).toBe(
        'mcpRoutes: option "operationIdPrefix" must be an identifier',
      );
    }
  });

  test('refuses methodAuth with public: true, or with an authenticating hook in hooks', () => {
    const methodAuth: McpMethodAuth = { call: callAuth(), discovery: 'public' };
    expect(routeRefusal(() => mcpRoutes('/mcp', handlerOf(), { methodAuth, public: true }))).toBe(
      'mcpRoutes: methodAuth cannot be combined with public: true (methodAuth already says which methods are public)',
    );
    expect(routeRefusal(() => mcpRoutes('/mcp', handlerOf(), { methodAuth, hooks: [callAuth()] }))).toBe(
      'mcpRoutes: methodAuth cannot be combined with an authenticating hook in hooks: put authentication in ' +
        'methodAuth.call and methodAuth.discovery',
    );
  });

  test('refuses methodAuth hook sets that are not Hooks objects, and unknown discovery methods', () => {
    const handler = handlerOf();
    const refuse = (methodAuth: unknown) =>
      routeRefusal(() => mcpRoutes('/mcp', handler, { methodAuth } as never));
    expect(refuse({ call: undefined, discovery: 'public' })).toBe(
      'mcpRoutes: methodAuth.call must be a Hooks object',
    );
    expect(refuse({ call: [callAuth()], discovery: 'public' })).toBe(
      'mcpRoutes: methodAuth.call must be a Hooks object',
    );
    expect(refuse({ call: callAuth(), discovery: 'private' })).toBe(
      'mcpRoutes: methodAuth.discovery must be a Hooks object',
    );
    expect(refuse({ call: callAuth(), discovery: 'public', discoveryMethods: 'tools/list' })).toBe(
      'mcpRoutes: methodAuth.discoveryMethods must be an array',
    );
    expect(
      refuse({ call: callAuth(), discovery: 'public', discoveryMethods: ['tools/list', 'tools/call'] }),
    ).toBe(
      'mcpRoutes: methodAuth.discoveryMethods contains "tools/call"; discovery methods are server/discover, ' +
        'tools/list, resources/list, resources/templates/list, prompts/list',
    );
  });
});

describe('mcpRoutes through an App', () => {
  test('GET answers 405 with Allow and the JSON hint', async () => {
    const response = await appWith({ public: true }).request('/mcp');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      type: 'https://charter.dev/errors/method-not-allowed',
      title: 'Method Not Allowed',
      status: 405,
      detail: 'This tool server offers no server-to-client stream: send JSON-RPC requests with POST',
      transport: 'streamable-http',
      protocolVersions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
      hint: 'POST JSON-RPC 2.0 messages to this URL',
    });
  });

  test('DELETE, PUT and PATCH answer 405 with the same Allow as GET and OPTIONS, never the router list', async () => {
    const app = appWith({ public: true });
    for (const method of ['DELETE', 'PUT', 'PATCH', 'HEAD']) {
      const response = await app.request('/mcp', { method });
      expect({ method, status: response.status, allow: response.headers.get('allow') }).toEqual({
        method,
        status: 405,
        allow: 'POST, OPTIONS',
      });
    }
  });

  test('OPTIONS answers 204 with Allow and no body', async () => {
    const response = await appWith({ public: true }).request('/mcp', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await response.text()).toBe('');
  });

  test('POST serves JSON-RPC in both eras', async () => {
    const app = appWith({ public: true });
    const legacy = await post(app, echoCall);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('content-type')).toBe('application/json');
    expect(await legacy.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'echoed' }] },
    });
    const modern = await post(app, { ...echoCall, label: 'tools/call', modern: true });
    expect(modern.status).toBe(200);
    expect(((await modern.json()) as { result: { resultType: string } }).result.resultType).toBe('complete');
  });

  test('hooks run on POST and not on GET or OPTIONS', async () => {
    const app = appWith({ hooks: callAuth() });
    await expectUnauthorized(await post(app, echoCall));
    expect((await post(app, { ...echoCall, token: CALL_TOKEN })).status).toBe(200);
    expect((await app.request('/mcp')).status).toBe(405);
    expect((await app.request('/mcp', { method: 'OPTIONS' })).status).toBe(204);
  });
});

describe('mcpRoutes boot guard', () => {
  test('a production App with unauthenticated tool-server routes refuses to start (auth-missing)', async () => {
    const app = appWith({}, { env: 'production' });
    const error = await app.ready().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InsecureConfigError);
    const issues = (error as InsecureConfigError).issues.filter((issue) => issue.code === 'auth-missing');
    expect(issues.map((issue) => [issue.route, issue.severity])).toContainEqual(['POST /mcp', 'error']);
    const first = await appWith({}, { env: 'production' }).request('/mcp', { method: 'OPTIONS' });
    expect(first.status).toBe(500);
  });

  test('public: true boots in production', async () => {
    const app = appWith({ public: true }, { env: 'production' });
    expect(await app.ready()).toBe(app);
  });

  test('an authenticating hook in hooks boots in production', async () => {
    const app = appWith({ hooks: callAuth() }, { env: 'production' });
    expect(await app.ready()).toBe(app);
  });

  test('methodAuth with authenticated call and public discovery boots in production', async () => {
    const app = appWith({ methodAuth: { call: callAuth(), discovery: 'public' } }, { env: 'production' });
    expect(await app.ready()).toBe(app);
  });

  test('methodAuth does not count as authentication when call or discovery hooks do not authenticate', async () => {
    const plain: Hooks = { preBody: () => undefined };
    for (const methodAuth of [
      { call: plain, discovery: 'public' as const },
      { call: callAuth(), discovery: plain },
    ]) {
      const error = await appWith({ methodAuth }, { env: 'production' })
        .ready()
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(InsecureConfigError);
      const routes = (error as InsecureConfigError).issues.map((issue) => `${issue.code} ${issue.route}`);
      expect(routes).toContain('auth-missing POST /mcp');
    }
  });
});

describe('mcpRoutes methodAuth', () => {
  const publicDiscovery = () => appWith({ methodAuth: { call: callAuth(), discovery: 'public' } });

  test('a discovery request labelled with Mcp-Method passes without a token, in both eras', async () => {
    const app = publicDiscovery();
    const legacy = await post(app, { method: 'tools/list', label: 'tools/list' });
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
    const modern = await post(app, { method: 'server/discover', label: 'server/discover', modern: true });
    expect(modern.status).toBe(200);
    expect(((await modern.json()) as { result: { resultType: string } }).result.resultType).toBe('complete');
  });

  test('tools/call needs the call token: 401 without it, 200 with it', async () => {
    const app = publicDiscovery();
    await expectUnauthorized(await post(app, { ...echoCall, label: 'tools/call' }));
    await expectUnauthorized(await post(app, { ...echoCall, label: 'tools/call', token: 'wrong' }));
    expect((await post(app, { ...echoCall, label: 'tools/call', token: CALL_TOKEN })).status).toBe(200);
  });

  test('a request without Mcp-Method gets the call hooks, even for a discovery method', async () => {
    const app = publicDiscovery();
    await expectUnauthorized(await post(app, { method: 'tools/list' }));
    expect((await post(app, { method: 'tools/list', token: CALL_TOKEN })).status).toBe(200);
  });

  test('a request labelled tools/list whose body is tools/call is refused with -32020', async () => {
    const app = publicDiscovery();
    for (const modern of [false, true]) {
      const response = await post(app, { ...echoCall, label: 'tools/list', modern });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32020,
          message: 'Header mismatch: the Mcp-Method header does not match the method in the body',
        },
      });
    }
  });

  test('discovery hooks, when not public, authenticate discovery with their own credentials', async () => {
    const app = appWith({ methodAuth: { call: callAuth(), discovery: discoveryAuth() } });
    await expectUnauthorized(await post(app, { method: 'tools/list', label: 'tools/list' }));
    expect(
      (await post(app, { method: 'tools/list', label: 'tools/list', token: DISCOVERY_TOKEN })).status,
    ).toBe(200);
    await expectUnauthorized(await post(app, { ...echoCall, label: 'tools/call', token: DISCOVERY_TOKEN }));
  });

  test('discoveryMethods narrows what counts as discovery', async () => {
    const app = appWith({
      methodAuth: { call: callAuth(), discovery: 'public', discoveryMethods: ['server/discover'] },
    });
    expect(
      (await post(app, { method: 'server/discover', label: 'server/discover', modern: true })).status,
    ).toBe(200);
    await expectUnauthorized(await post(app, { method: 'tools/list', label: 'tools/list' }));
    expect((await post(app, { method: 'tools/list', label: 'tools/list', token: CALL_TOKEN })).status).toBe(
      200,
    );
  });
});

describe('mcpRoutes and the App production flag', () => {
  const boom = { method: 'tools/call', params: { name: 'boom', arguments: {} } };
  const messageOf = async (response: Response) =>
    ((await response.json()) as { error: { message: string } }).error.message;

  test('a production App hides the detail of an unexpected throw', async () => {
    const response = await post(appWith({ public: true }, { env: 'production' }), boom);
    expect(response.status).toBe(200);
    expect(await messageOf(response)).toBe('Tool execution failed');
  });

  test('outside production (NODE_ENV test) the detail is shown', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    expect(await messageOf(await post(appWith({ public: true }), boom))).toBe(
      'Tool execution failed: secret detail',
    );
  });

  test('an explicit exposeInternalErrors wins over the production App', async () => {
    const app = appWith({ public: true }, { env: 'production' }, handlerOf({ exposeInternalErrors: true }));
    expect(await messageOf(await post(app, boom))).toBe('Tool execution failed: secret detail');
  });
});

describe('mcpRoutes in the OpenAPI document', () => {
  test('documents POST and OPTIONS (what Allow lists), the POST body from jsonSchema.body, and validates', async () => {
    const app = appWith({ public: true, tags: ['mcp'] });
    const doc = generateOpenAPI(app, { info: { title: 'Notes', version: '1.0.0' } }) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const path = doc.paths['/mcp'] ?? {};
    // GET is answered 405 (no stream), so it is neither in Allow nor an operation (issue 19).
    expect(Object.keys(path).sort()).toEqual(['options', 'post']);
    expect((await app.request('/mcp', { method: 'OPTIONS' })).headers.get('allow')).toBe('POST, OPTIONS');
    expect(path.post?.operationId).toBe('mcpPost');
    expect(path.options?.operationId).toBe('mcpOptions');
    expect((path.options?.responses as Record<string, { description: string }>)['204']?.description).toBe(
      'Allow: POST, OPTIONS',
    );
    const requestBody = path.post?.requestBody as {
      content: Record<string, { schema: Record<string, unknown> }>;
    };
    const schema = requestBody.content['application/json']?.schema as { anyOf: unknown[] };
    const message = {
      type: 'object',
      required: ['jsonrpc'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer'] },
        method: { type: 'string', minLength: 1 },
      },
    };
    // One message, or a batch no longer than maxBatchSize (default 16), which the document states.
    expect(schema.anyOf).toHaveLength(2);
    expect(schema.anyOf[0]).toMatchObject(message);
    expect(schema.anyOf[1]).toMatchObject({ type: 'array', items: message, minItems: 1, maxItems: 16 });
    const responses = path.post?.responses as Record<string, unknown>;
    const ok = (responses['200'] as { content: Record<string, { schema: { anyOf: unknown[] } }> }).content;
    expect(ok['application/json']?.schema.anyOf[1]).toMatchObject({ type: 'array', maxItems: 16 });
    expect(Object.keys(responses)).toEqual(
      expect.arrayContaining(['200', '202', '400', '403', '404', '413', '415']),
    );
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  test('a handler without batches (maxBatchSize 0, or no 2025-03-26) documents one message only', () => {
    for (const handler of [
      handlerOf({ maxBatchSize: 0 }),
      handlerOf({ protocolVersions: ['2025-11-25', '2026-07-28'] }),
    ]) {
      const doc = generateOpenAPI(appWith({ public: true }, {}, handler), {
        info: { title: 'Notes', version: '1.0.0' },
      }) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const requestBody = doc.paths['/mcp']?.post?.requestBody as {
        content: Record<string, { schema: Record<string, unknown> }>;
      };
      const schema = requestBody.content['application/json']?.schema;
      expect(schema).toMatchObject({ type: 'object', required: ['jsonrpc'] });
      expect(schema).not.toHaveProperty('anyOf');
    }
  });
});

describe('mcpRoutes and the App cross-origin guard', () => {
  function originApp(): App {
    const handler = createMcpHandler({
      serverInfo: { name: 'origins', version: '1.0.0' },
      allowedOrigins: ['https://ok.example'],
      tools: [
        {
          name: 'ping_tool',
          description: 'Answers pong',
          inputSchema: { type: 'object' },
          handler: () => 'pong',
        },
      ],
    });
    const app = new App({ logger: false });
    app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));
    return app;
  }

  const list = (origin: string) =>
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  test('an origin the handler allows gets past the App guard and is served', async () => {
    for (const origin of ['https://ok.example', 'http://127.0.0.1:5173', 'http://localhost:3000']) {
      const response = await originApp().fetch(list(origin));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as { id: number; result: { tools: { name: string }[] } };
      expect(body.id).toBe(1);
      expect(body.result.tools.map((tool) => tool.name)).toEqual(['ping_tool']);
    }
  });

  test('an origin the handler does not allow is refused with a 403 problem', async () => {
    const response = await originApp().fetch(list('https://evil.example'));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = (await response.json()) as { status: number; type: string };
    expect(body.status).toBe(403);
    expect(body.type).toBe('https://charter.dev/errors/forbidden');
  });
});

/**
 * The legacy era (2024-11-05 through 2025-11-25) by hand-built requests: the initialize handshake
 * and version negotiation, notifications, ping, logging/setLevel, the feature methods, pagination
 * cursors, the `MCP-Protocol-Version` header rules of Streamable HTTP, mirrored headers sent on
 * legacy requests, JSON-RPC batches (2025-03-26 only) and the stateless handling of session ids.
 */
import { describe, expect, test } from 'bun:test';
import { encodeBase64Url } from '@charter/core';
import { encodeMcpHeaderValue, MCP_META_KEYS } from '@charter/mcp';
import {
  ALL_VERSIONS_NEWEST_FIRST,
  createFixture,
  expectAccepted,
  expectBatch,
  expectIdNullError,
  expectMethodNotFound,
  expectProblem,
  expectRpcError,
  expectRpcResult,
  firstText,
  INSTRUCTIONS,
  inspectedContext,
  LEGACY_VERSIONS,
  legacyPost,
  MODERN,
  PROMPT_NAMES,
  RESOURCE_URIS,
  rpc,
  SERVER_INFO,
  send,
  TEMPLATE_URIS,
  TOOL_NAMES,
} from './support.ts';

const fx = createFixture();
const { app } = fx;

const LEGACY_CAPABILITIES = { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} };

/** A legacy result carries none of the modern decoration. */
function expectUndecorated(result: Record<string, unknown>): void {
  for (const key of ['resultType', 'ttlMs', 'cacheScope', '_meta'])
    expect([key, key in result]).toEqual([key, false]);
}

const initialize = (protocolVersion: unknown, id: string | number = 'init') =>
  rpc(
    'initialize',
    { protocolVersion, capabilities: {}, clientInfo: { name: 'hand-built', version: '1.0' } },
    id,
  );

describe('initialize: the handshake and version negotiation', () => {
  for (const version of LEGACY_VERSIONS) {
    test(`a served legacy version (${version}) is echoed`, async () => {
      const result = await expectRpcResult(await legacyPost(app, initialize(version)), 'init');
      expect(result).toEqual({
        protocolVersion: version,
        capabilities: LEGACY_CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      });
      expectUndecorated(result);
    });
  }

  test('an unknown version is answered with the newest served legacy version', async () => {
    for (const version of ['2023-01-01', '2025-04-01', 'banana', '']) {
      const res = await legacyPost(app, initialize(version, 2));
      if (version === '') {
        await expectRpcError(res, { status: 200, code: -32602, id: 2, message: 'params.protocolVersion' });
        continue;
      }
      expect((await expectRpcResult(res, 2)).protocolVersion).toBe('2025-11-25');
    }
  });

  test('a modern version in initialize is answered with 2025-11-25: the handshake never offers 2026-07-28', async () => {
    const result = await expectRpcResult(await legacyPost(app, initialize(MODERN, 3)), 3);
    expect(result.protocolVersion).toBe('2025-11-25');
    expectUndecorated(result);
  });

  test('negotiation offers the newest legacy version this handler serves', async () => {
    const narrow = createFixture({ handler: { protocolVersions: ['2024-11-05', '2025-03-26', MODERN] } });
    expect(
      (await expectRpcResult(await legacyPost(narrow.app, initialize('2025-11-25', 4)), 4)).protocolVersion,
    ).toBe('2025-03-26');
    expect(
      (await expectRpcResult(await legacyPost(narrow.app, initialize('2024-11-05', 5)), 5)).protocolVersion,
    ).toBe('2024-11-05');
  });

  test('a handler serving only 2026-07-28 refuses the handshake with -32602 and the versions it serves', async () => {
    const modernOnly = createFixture({ handler: { protocolVersions: [MODERN] } });
    const error = await expectRpcError(await legacyPost(modernOnly.app, initialize('2025-11-25', 6)), {
      status: 200,
      code: -32602,
      id: 6,
      message: 'only the stateless 2026-07-28 era',
    });
    expect(error.data).toEqual({ supported: [MODERN], requested: '2025-11-25' });
  });

  test('a missing protocolVersion or non-object capabilities is -32602', async () => {
    await expectRpcError(await legacyPost(app, rpc('initialize', {}, 7)), {
      status: 200,
      code: -32602,
      id: 7,
      message: 'initialize needs params.protocolVersion',
    });
    await expectRpcError(
      await legacyPost(app, rpc('initialize', { protocolVersion: '2025-11-25', capabilities: [] }, 8)),
      { status: 200, code: -32602, id: 8, message: 'capabilities must be an object' },
    );
  });

  test('instructions are left out when the server has none', async () => {
    const plain = createFixture({ handler: { instructions: undefined } });
    const result = await expectRpcResult(await legacyPost(plain.app, initialize('2025-06-18', 9)), 9);
    expect('instructions' in result).toBe(false);
  });
});

describe('notifications and ping', () => {
  test('notifications/initialized is accepted with 202 and no body', async () => {
    await expectAccepted(await legacyPost(app, { jsonrpc: '2.0', method: 'notifications/initialized' }));
    await expectAccepted(
      await legacyPost(
        app,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'mcp-protocol-version': '2025-11-25' },
      ),
    );
  });

  test('other client notifications (cancelled, progress, roots changed) are accepted the same way', async () => {
    for (const method of [
      'notifications/cancelled',
      'notifications/progress',
      'notifications/roots/list_changed',
    ]) {
      await expectAccepted(await legacyPost(app, { jsonrpc: '2.0', method, params: { requestId: 1 } }));
    }
  });

  test('a client response to a server request is accepted with 202', async () => {
    await expectAccepted(await legacyPost(app, { jsonrpc: '2.0', id: 'srv-1', result: {} }));
  });

  test('ping answers an empty result, with or without params', async () => {
    expect(await expectRpcResult(await legacyPost(app, rpc('ping', undefined, 'p')), 'p')).toEqual({});
    expect(await expectRpcResult(await legacyPost(app, rpc('ping', {}, 'q')), 'q')).toEqual({});
  });
});

describe('logging/setLevel', () => {
  test('every RFC 5424 level is accepted with an empty result', async () => {
    for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']) {
      expect(
        await expectRpcResult(await legacyPost(app, rpc('logging/setLevel', { level }, level)), level),
      ).toEqual({});
    }
  });

  test('an unknown, upper-case or missing level is -32602', async () => {
    for (const params of [{ level: 'verbose' }, { level: 'INFO' }, { level: 1 }, {}]) {
      await expectRpcError(await legacyPost(app, rpc('logging/setLevel', params, 'lvl')), {
        status: 200,
        code: -32602,
        id: 'lvl',
        message: 'params.level must be one of debug',
      });
    }
  });
});

const V0618 = { 'mcp-protocol-version': '2025-06-18' };

describe('tools', () => {
  test('tools/list lists every tool with its input (and, from 2025-06-18, output) schema', async () => {
    const result = await expectRpcResult(await legacyPost(app, rpc('tools/list'), V0618), 1);
    expectUndecorated(result);
    const tools = result.tools as Record<string, unknown>[];
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    const echo = tools[1] as Record<string, unknown>;
    expect(echo.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: 3 } },
      required: ['text'],
    });
    expect(echo.outputSchema).toEqual({
      type: 'object',
      properties: { echoed: { type: 'string' } },
      required: ['echoed'],
    });
    expect(tools[0]).toEqual({
      name: 'list_items',
      description: 'Lists the items; takes no arguments.',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', additionalProperties: false },
    });
  });

  test('tools/call runs an arktype tool and returns text and structuredContent', async () => {
    const result = await expectRpcResult(
      await legacyPost(
        app,
        rpc('tools/call', { name: 'echo', arguments: { text: 'ab', times: 2 } }, 'c'),
        V0618,
      ),
      'c',
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'abab' }],
      structuredContent: { echoed: 'abab' },
    });
  });

  test('invalid arguments are -32602 with the problems listed, before the handler runs', async () => {
    const before = fx.seen.length;
    const error = await expectRpcError(
      await legacyPost(
        app,
        rpc('tools/call', { name: 'echo', arguments: { text: 1, times: 9 } }, 'bad'),
        V0618,
      ),
      { status: 200, code: -32602, id: 'bad', message: 'Invalid arguments for tool "echo"' },
    );
    expect((error.data as { problems: string[] }).problems.length).toBeGreaterThanOrEqual(2);
    expect(fx.seen.length).toBe(before);
  });

  test('an unknown tool, a missing name or non-object arguments are -32602', async () => {
    for (const [params, message] of [
      [{ name: 'nope' }, 'Unknown tool: "nope"'],
      [{}, 'tools/call needs params.name'],
      [{ name: 'echo', arguments: ['ab'] }, 'arguments must be an object'],
    ] as const) {
      await expectRpcError(await legacyPost(app, rpc('tools/call', params, 't')), {
        status: 200,
        code: -32602,
        id: 't',
        message,
      });
    }
  });

  test('an McpToolError is an isError result the model can read', async () => {
    const result = await expectRpcResult(
      await legacyPost(
        app,
        rpc('tools/call', { name: 'explode', arguments: { kind: 'tool-error' } }, 'e'),
        V0618,
      ),
      'e',
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'The item is locked' }],
      isError: true,
      structuredContent: { locked: true },
    });
  });

  test('x-mcp-header tools need no Mcp-Param-* headers in the legacy era', async () => {
    const result = await expectRpcResult(
      await legacyPost(
        app,
        rpc('tools/call', { name: 'weather', arguments: { region: 'eu', days: 2 } }, 'w'),
      ),
      'w',
    );
    expect(firstText(result)).toBe('Sunny in eu for 2 day(s)');
  });

  test('a tool that needs input cannot ask for it in the legacy era: -32603', async () => {
    await expectRpcError(
      await legacyPost(app, rpc('tools/call', { name: 'confirm_delete', arguments: { item: 'x' } }, 'ir')),
      { status: 200, code: -32603, id: 'ir', message: 'cannot ask for; use 2026-07-28' },
    );
  });

  test('legacy handlers see no client capabilities and no requestState, even when one is sent', async () => {
    const result = await expectRpcResult(
      await legacyPost(
        app,
        rpc('tools/call', { name: 'inspect', arguments: {}, requestState: 'x' }, 'i'),
        V0618,
      ),
      'i',
    );
    expect(result.structuredContent).toEqual({
      protocolVersion: '2025-06-18',
      era: 'legacy',
      id: 'i',
      method: 'tools/call',
      clientInfo: null,
      logLevel: null,
      clientCapabilities: {},
    });
    expect(fx.seen.at(-1)?.ctx.requestState).toBeUndefined();
  });
});

describe('resources and prompts', () => {
  test('resources/list and resources/templates/list list every record', async () => {
    const resources = await expectRpcResult(await legacyPost(app, rpc('resources/list')), 1);
    expectUndecorated(resources);
    expect((resources.resources as { uri: string }[]).map((r) => r.uri)).toEqual([...RESOURCE_URIS]);
    expect((resources.resources as Record<string, unknown>[])[0]).toEqual({
      uri: 'docs://readme',
      name: 'readme',
      mimeType: 'text/markdown',
    });
    const templates = await expectRpcResult(await legacyPost(app, rpc('resources/templates/list')), 1);
    expect(templates.resourceTemplates).toEqual([
      { uriTemplate: TEMPLATE_URIS[0], name: 'page', mimeType: 'text/markdown' },
      { uriTemplate: TEMPLATE_URIS[1], name: 'tag' },
    ]);
  });

  test('resources/read serves fixed URIs and template matches', async () => {
    const read = async (uri: string) =>
      (await expectRpcResult(await legacyPost(app, rpc('resources/read', { uri }, uri)), uri)).contents;
    expect(await read('docs://readme')).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Read me' },
    ]);
    expect(await read('docs://license')).toEqual([
      { uri: 'docs://license', mimeType: 'text/plain', text: 'MIT' },
    ]);
    expect(await read('docs://pages/routing')).toEqual([
      { uri: 'docs://pages/routing', mimeType: 'text/markdown', text: '# routing' },
    ]);
  });

  test('a missing resource is -32002 with data.uri (legacy code), including traversal attempts', async () => {
    for (const uri of [
      'docs://nothing',
      'docs://pages/nope',
      'docs://pages/..',
      'docs://pages/%2e%2e',
      'docs://pages/a/b',
    ]) {
      const error = await expectRpcError(await legacyPost(app, rpc('resources/read', { uri }, 'nf')), {
        status: 200,
        code: -32002,
        id: 'nf',
        message: 'Resource not found',
      });
      expect(error.data).toEqual({ uri });
    }
  });

  test('resources/read without a uri is -32602', async () => {
    await expectRpcError(await legacyPost(app, rpc('resources/read', {}, 'u')), {
      status: 200,
      code: -32602,
      id: 'u',
      message: 'resources/read needs params.uri',
    });
  });

  test('prompts/list and prompts/get', async () => {
    const list = await expectRpcResult(await legacyPost(app, rpc('prompts/list')), 1);
    expect((list.prompts as { name: string }[]).map((p) => p.name)).toEqual([...PROMPT_NAMES]);
    expect((list.prompts as Record<string, unknown>[])[0]).toEqual({
      name: 'greet',
      description: 'Greets someone',
      arguments: [
        { name: 'name', required: true },
        { name: 'tone', description: 'formal or casual' },
      ],
    });
    const got = await expectRpcResult(
      await legacyPost(
        app,
        rpc('prompts/get', { name: 'greet', arguments: { name: 'Ada', tone: 'formal' } }, 'g'),
      ),
      'g',
    );
    expect(got).toEqual({
      description: 'A greeting',
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada (formal)' } }],
    });
  });

  test('prompts/get refuses an unknown prompt, a missing required argument and a non-string argument', async () => {
    const missing = await expectRpcError(await legacyPost(app, rpc('prompts/get', { name: 'greet' }, 'p')), {
      status: 200,
      code: -32602,
      id: 'p',
      message: 'needs the argument "name"',
    });
    expect(missing.data).toEqual({ missing: ['name'] });
    await expectRpcError(await legacyPost(app, rpc('prompts/get', { name: 'nope' }, 'p')), {
      status: 200,
      code: -32602,
      id: 'p',
      message: 'Unknown prompt: "nope"',
    });
    await expectRpcError(
      await legacyPost(app, rpc('prompts/get', { name: 'greet', arguments: { name: 42 } }, 'p')),
      { status: 200, code: -32602, id: 'p', message: 'Prompt argument "name" must be a string' },
    );
  });
});

describe('completion/complete (declared: the fixture has completers)', () => {
  const completeParams = (ref: Record<string, unknown>, name: string, value: string) => ({
    ref,
    argument: { name, value },
  });

  test('completes a prompt argument and a template variable', async () => {
    const prompt = await expectRpcResult(
      await legacyPost(
        app,
        rpc('completion/complete', completeParams({ type: 'ref/prompt', name: 'greet' }, 'name', 'A')),
      ),
      1,
    );
    expect(prompt).toEqual({ completion: { values: ['Ada', 'Alan'], total: 2 } });
    const template = await expectRpcResult(
      await legacyPost(
        app,
        rpc(
          'completion/complete',
          completeParams({ type: 'ref/resource', uri: TEMPLATE_URIS[0] }, 'slug', 'in'),
        ),
      ),
      1,
    );
    expect(template).toEqual({ completion: { values: ['intro', 'install'], total: 2 } });
  });

  test('an argument without a completer completes to nothing', async () => {
    const result = await expectRpcResult(
      await legacyPost(
        app,
        rpc('completion/complete', completeParams({ type: 'ref/prompt', name: 'greet' }, 'tone', 'f')),
      ),
      1,
    );
    expect(result).toEqual({ completion: { values: [] } });
  });

  test('an unknown prompt, template or ref type is -32602', async () => {
    for (const [ref, message] of [
      [{ type: 'ref/prompt', name: 'nope' }, 'Unknown prompt'],
      [{ type: 'ref/resource', uri: 'docs://x/{y}' }, 'Unknown resource template'],
      [{ type: 'ref/tool', name: 'echo' }, 'must be "ref/prompt" or "ref/resource"'],
    ] as const) {
      await expectRpcError(
        await legacyPost(app, rpc('completion/complete', completeParams(ref, 'name', ''), 'cc')),
        {
          status: 200,
          code: -32602,
          id: 'cc',
          message,
        },
      );
    }
  });

  test('a server without completers does not offer completion: -32601 with HTTP 200 (legacy)', async () => {
    const bare = createFixture({ handler: { prompts: [], resourceTemplates: [] } });
    const init = await expectRpcResult(await legacyPost(bare.app, initialize('2025-11-25')), 'init');
    expect(init.capabilities).toEqual({ tools: {}, resources: {}, logging: {} });
    await expectRpcError(
      await legacyPost(
        bare.app,
        rpc('completion/complete', completeParams({ type: 'ref/prompt', name: 'greet' }, 'n', ''), 'x'),
      ),
      { status: 200, code: -32601, id: 'x', message: 'Method not found: "completion/complete"' },
    );
  });
});

describe('legacy dispatch', () => {
  test('an unknown method is -32601 with HTTP 200 in the legacy era', async () => {
    await expectMethodNotFound(app, 'legacy', { method: 'tools/destroy', id: 'u' });
  });

  test('server/discover does not exist in the legacy era', async () => {
    await expectMethodNotFound(app, 'legacy', {
      method: 'server/discover',
      id: 'd',
      message: 'server/discover',
    });
  });

  test('resources/subscribe is not offered (no resources.subscribe capability)', async () => {
    await expectMethodNotFound(app, 'legacy', {
      method: 'resources/subscribe',
      params: { uri: 'docs://readme' },
      id: 's',
      message: 'resources/subscribe',
    });
  });
});

describe('pagination cursors (pageSize 2)', () => {
  const paged = createFixture({ handler: { pageSize: 2 } });
  const lists = [
    { method: 'tools/list', key: 'tools', field: 'name', all: [...TOOL_NAMES] },
    { method: 'resources/list', key: 'resources', field: 'uri', all: [...RESOURCE_URIS] },
    {
      method: 'resources/templates/list',
      key: 'resourceTemplates',
      field: 'uriTemplate',
      all: [...TEMPLATE_URIS],
    },
    { method: 'prompts/list', key: 'prompts', field: 'name', all: [...PROMPT_NAMES] },
  ] as const;

  async function page(method: string, cursor?: unknown) {
    const params = cursor === undefined ? undefined : { cursor };
    return expectRpcResult(await legacyPost(paged.app, rpc(method, params, 'page')), 'page');
  }

  for (const { method, key, field, all } of lists) {
    test(`${method}: nextCursor walks the whole list, two at a time, and the last page has none`, async () => {
      const seen: unknown[] = [];
      let cursor: unknown;
      let pages = 0;
      do {
        const result = await page(method, cursor);
        const entries = result[key] as Record<string, unknown>[];
        expect(entries.length).toBeLessThanOrEqual(2);
        seen.push(...entries.map((entry) => entry[field]));
        cursor = result.nextCursor;
        if (cursor !== undefined) expect(typeof cursor).toBe('string');
        pages++;
      } while (cursor !== undefined);
      expect(seen).toEqual([...all]);
      expect(pages).toBe(Math.ceil(all.length / 2));
    });
  }

  test('a cursor from another list is -32602', async () => {
    const toolsCursor = (await page('tools/list')).nextCursor as string;
    const promptsCursor = (await page('prompts/list')).nextCursor as string;
    await expectRpcError(await legacyPost(paged.app, rpc('prompts/list', { cursor: toolsCursor }, 'x')), {
      status: 200,
      code: -32602,
      id: 'x',
      message: 'Invalid cursor',
    });
    await expectRpcError(await legacyPost(paged.app, rpc('tools/list', { cursor: promptsCursor }, 'y')), {
      status: 200,
      code: -32602,
      id: 'y',
      message: 'Invalid cursor',
    });
  });

  test('garbage, an empty string, a non-string and a crafted out-of-range cursor are -32602', async () => {
    const crafted = (text: string) => encodeBase64Url(new TextEncoder().encode(text));
    for (const cursor of [
      'garbage',
      '',
      42,
      null,
      { offset: 2 },
      crafted('tools:7'),
      crafted('tools:0'),
      crafted('tools:-2'),
      crafted('tools:02'),
      'x'.repeat(201),
    ]) {
      await expectRpcError(await legacyPost(paged.app, rpc('tools/list', { cursor }, 'c')), {
        status: 200,
        code: -32602,
        id: 'c',
        message: 'Invalid cursor: it was not issued by this server for this list',
      });
    }
  });

  test('a list that fits one page has no nextCursor', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const result = await expectRpcResult(await legacyPost(app, rpc(method, undefined, method)), method);
      expect([method, 'nextCursor' in result]).toEqual([method, false]);
    }
  });
});

describe('the MCP-Protocol-Version header (Streamable HTTP)', () => {
  const inspect = (headers: Record<string, string> = {}) =>
    legacyPost(app, rpc('tools/call', { name: 'inspect', arguments: {} }, 'h'), headers);

  test('absent: served as 2025-03-26, so tools/call has no structuredContent and tools/list no outputSchema', async () => {
    const call = await expectRpcResult(await inspect(), 'h');
    expect('structuredContent' in call).toBe(false);
    expect(JSON.parse(firstText(call))).toMatchObject({ protocolVersion: '2025-03-26', era: 'legacy' });
    const echo = await expectRpcResult(
      await legacyPost(app, rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }, 'e')),
      'e',
    );
    expect(echo).toEqual({ content: [{ type: 'text', text: 'x' }] });
    const list = await expectRpcResult(await legacyPost(app, rpc('tools/list')), 1);
    for (const tool of list.tools as Record<string, unknown>[]) expect('outputSchema' in tool).toBe(false);
    const toolError = await expectRpcResult(
      await legacyPost(app, rpc('tools/call', { name: 'explode', arguments: { kind: 'tool-error' } }, 't')),
      't',
    );
    expect(toolError).toEqual({ content: [{ type: 'text', text: 'The item is locked' }], isError: true });
  });

  for (const version of LEGACY_VERSIONS) {
    test(`present and served (${version}): the handler is told that revision`, async () => {
      const result = await expectRpcResult(await inspect({ 'mcp-protocol-version': version }), 'h');
      expect(JSON.parse(firstText(result))).toMatchObject({ protocolVersion: version, era: 'legacy' });
      expect('structuredContent' in result).toBe(version >= '2025-06-18');
      const list = await expectRpcResult(
        await legacyPost(app, rpc('tools/list'), { 'mcp-protocol-version': version }),
        1,
      );
      const echo = (list.tools as Record<string, unknown>[])[1] as Record<string, unknown>;
      expect('outputSchema' in echo).toBe(version >= '2025-06-18');
    });
  }

  test('present and unsupported: 400 with -32022, the served versions and the request id', async () => {
    for (const header of ['garbage', '2024-01-01', '2025-11-24', '']) {
      const res = await legacyPost(app, rpc('ping', undefined, 'v'), { 'mcp-protocol-version': header });
      const error = await expectRpcError(res, {
        status: 400,
        code: -32022,
        id: 'v',
        message: 'Unsupported protocol version',
      });
      expect(error.data).toEqual({ supported: ALL_VERSIONS_NEWEST_FIRST, requested: header });
    }
  });

  test('a legacy revision this handler does not serve is -32022 as well', async () => {
    const narrow = createFixture({ handler: { protocolVersions: ['2025-11-25', MODERN] } });
    const error = await expectRpcError(
      await legacyPost(narrow.app, rpc('ping', undefined, 'n'), { 'mcp-protocol-version': '2025-03-26' }),
      { status: 400, code: -32022, id: 'n', message: '"2025-03-26"' },
    );
    expect(error.data).toEqual({ supported: [MODERN, '2025-11-25'], requested: '2025-03-26' });
  });

  test('a modern version in the header without _meta takes the modern path: -32602 with HTTP 400', async () => {
    for (const body of [
      rpc('tools/list', undefined, 'm'),
      initialize('2025-11-25', 'm'),
      rpc('ping', undefined, 'm'),
    ]) {
      await expectRpcError(await legacyPost(app, body, { 'mcp-protocol-version': MODERN }), {
        status: 400,
        code: -32602,
        id: 'm',
        message: 'params._meta',
      });
    }
  });

  test('initialize decides its own revision; a sent header is still validated', async () => {
    const ok = await legacyPost(app, initialize('2025-03-26', 'i'), { 'mcp-protocol-version': '2025-06-18' });
    expect((await expectRpcResult(ok, 'i')).protocolVersion).toBe('2025-03-26');
    await expectRpcError(
      await legacyPost(app, initialize('2025-03-26', 'j'), { 'mcp-protocol-version': 'x' }),
      {
        status: 400,
        code: -32022,
        id: 'j',
        message: 'Unsupported',
      },
    );
  });
});

describe('mirrored headers sent on a legacy request are checked', () => {
  const call = rpc('tools/call', { name: 'list_items' }, 'mh');

  test('absent mirrors are fine in the legacy era', async () => {
    await expectRpcResult(await legacyPost(app, call), 'mh');
  });

  test('matching Mcp-Method and Mcp-Name are served', async () => {
    const res = await legacyPost(app, call, { 'mcp-method': 'tools/call', 'mcp-name': 'list_items' });
    expect(firstText(await expectRpcResult(res, 'mh'))).toBe('alpha, beta, gamma');
  });

  test('an Mcp-Method that names another method is -32020 with HTTP 400 (a label cannot buy cheaper hooks)', async () => {
    await expectRpcError(await legacyPost(app, call, { 'mcp-method': 'tools/list' }), {
      status: 400,
      code: -32020,
      id: 'mh',
      message: 'Mcp-Method header does not match',
    });
  });

  test('an Mcp-Name that names another tool, or a malformed sentinel, is -32020', async () => {
    for (const name of ['echo', '=?base64?bGlzdF9pdGVtcw?=']) {
      await expectRpcError(await legacyPost(app, call, { 'mcp-name': name }), {
        status: 400,
        code: -32020,
        id: 'mh',
        message: 'Mcp-Name header does not match params.name',
      });
    }
  });

  test('an Mcp-Method on a notification is not checked (notifications get 202 before any era rule)', async () => {
    await expectAccepted(
      await legacyPost(
        app,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'mcp-method': 'ping' },
      ),
    );
  });
});

describe('Mcp-Param-* headers sent on a legacy request must agree with the arguments', () => {
  // A gateway that routes by Mcp-Param-Region must never see one region while the tool runs with
  // another: the header is optional before 2026-07-28, but when it is sent it is checked as in 2026-07-28.
  const weather = (args: Record<string, unknown>, id: string) =>
    rpc('tools/call', { name: 'weather', arguments: args }, id);
  const revisions: readonly (Record<string, string> | undefined)[] = [
    undefined, // no MCP-Protocol-Version: 2025-03-26 is assumed
    V0618,
    { 'mcp-protocol-version': '2025-11-25' },
  ];

  async function expectMismatch(res: Response, id: string, message: string): Promise<void> {
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id,
      error: { code: -32020, message: `Header mismatch: ${message}` },
    });
  }

  test('a header that disagrees with its argument is 400 -32020 under every legacy revision, and the tool does not run', async () => {
    for (const version of revisions) {
      const before = fx.seen.length;
      const res = await legacyPost(app, weather({ region: 'eu-west', days: 2 }, 'pm'), {
        ...version,
        'mcp-param-region': 'us-east',
      });
      await expectMismatch(res, 'pm', 'The Mcp-Param-Region header does not match the argument it mirrors.');
      expect(fx.seen.length).toBe(before);
    }
  });

  test('integer and boolean headers are compared as in 2026-07-28', async () => {
    await expectMismatch(
      await legacyPost(app, weather({ region: 'eu', days: 2 }, 'pi'), { ...V0618, 'mcp-param-days': '3' }),
      'pi',
      'The Mcp-Param-Days header does not match the argument it mirrors.',
    );
    await expectMismatch(
      await legacyPost(app, weather({ region: 'eu', metric: true }, 'pb'), {
        ...V0618,
        'mcp-param-metric': 'yes',
      }),
      'pb',
      'The Mcp-Param-Metric header must be "true" or "false".',
    );
    await expectMismatch(
      await legacyPost(app, weather({ region: 'Zürich' }, 'ps'), {
        ...V0618,
        'mcp-param-region': '=?base64?WsO8cmljaA?=',
      }),
      'ps',
      'The Mcp-Param-Region header value has characters a header cannot carry or a malformed Base64 sentinel.',
    );
  });

  test('a header for an argument the call does not carry is 400 -32020', async () => {
    await expectMismatch(
      await legacyPost(app, weather({ region: 'eu' }, 'pa'), { ...V0618, 'mcp-param-days': '2' }),
      'pa',
      'The Mcp-Param-Days header is present but the argument it mirrors is absent or null.',
    );
  });

  test('headers that agree are served, as are missing ones (legacy clients predate x-mcp-header)', async () => {
    for (const version of revisions) {
      const all = await legacyPost(app, weather({ region: 'Zürich', days: 42, metric: false }, 'ok'), {
        ...version,
        'mcp-param-region': encodeMcpHeaderValue('Zürich'),
        'mcp-param-days': '42.0',
        'mcp-param-metric': 'false',
      });
      expect(all.headers.get('cache-control')).toBe('no-store');
      expect(firstText(await expectRpcResult(all, 'ok'))).toBe('Sunny in Zürich for 42 day(s)');
      const some = await legacyPost(app, weather({ region: 'eu', days: 2 }, 'ok'), {
        ...version,
        'mcp-param-region': 'eu',
      });
      expect(firstText(await expectRpcResult(some, 'ok'))).toBe('Sunny in eu for 2 day(s)');
    }
  });

  test('in a 2025-03-26 batch the header is checked against every member: the one that disagrees is refused alone', async () => {
    const res = await legacyPost(app, [weather({ region: 'eu' }, 'b1'), weather({ region: 'us' }, 'b2')], {
      'mcp-protocol-version': '2025-03-26',
      'mcp-param-region': 'eu',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await expectBatch(res)).toEqual([
      { jsonrpc: '2.0', id: 'b1', result: { content: [{ type: 'text', text: 'Sunny in eu for 1 day(s)' }] } },
      {
        jsonrpc: '2.0',
        id: 'b2',
        error: {
          code: -32020,
          message: 'Header mismatch: The Mcp-Param-Region header does not match the argument it mirrors.',
        },
      },
    ]);
  });
});

const ping = (id: string | number) => rpc('ping', undefined, id);
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('JSON-RPC batches: served only under 2025-03-26', () => {
  for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
    const label = 'mcp-protocol-version' in headers ? 'with the 2025-03-26 header' : 'without a header';
    test(`${label}: mixed requests and notifications get an array of answers for the requests only`, async () => {
      const res = await legacyPost(app, [ping(1), note, rpc('tools/list', undefined, 'b'), note], headers);
      const answers = await expectBatch(res);
      expect(answers.map((answer) => answer.id)).toEqual([1, 'b']);
      expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      const tools = (answers[1]?.result as { tools: { name: string }[] }).tools;
      expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
      expectUndecorated(answers[1]?.result as Record<string, unknown>);
    });
  }

  test('a batch of notifications only is accepted with 202 and no body', async () => {
    await expectAccepted(
      await legacyPost(app, [note, { jsonrpc: '2.0', method: 'notifications/cancelled' }]),
    );
  });

  test('errors inside a batch are answered in place, each with its id', async () => {
    const answers = await expectBatch(
      await legacyPost(app, [
        ping('a'),
        rpc('nope', undefined, 'b'),
        { jsonrpc: '1.0', id: 'c', method: 'ping' },
        7,
      ]),
    );
    expect(
      answers.map((answer) => [answer.id, (answer.error as { code: number } | undefined)?.code]),
    ).toEqual([
      ['a', undefined],
      ['b', -32601],
      ['c', -32600],
      [null, -32600],
    ]);
  });

  test('an empty array is 400 -32600', async () => {
    await expectIdNullError(await legacyPost(app, []), -32600, 'an empty batch');
  });

  test('16 messages (the default maxBatchSize) are served; 17 are refused with 400 -32600', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ping(i));
    const answers = await expectBatch(await legacyPost(app, many(16)));
    expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    await expectIdNullError(await legacyPost(app, many(17)), -32600, 'at most 16 messages');
  });

  test('initialize inside a batch is refused in place; the other messages are served', async () => {
    const answers = await expectBatch(await legacyPost(app, [initialize('2025-03-26', 'i'), ping('p')]));
    expect(answers[0]).toEqual({
      jsonrpc: '2.0',
      id: 'i',
      error: { code: -32600, message: 'Invalid Request: initialize must not be part of a batch' },
    });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  test('a 2026-07-28 request inside a batch is refused in place: that era has no batches', async () => {
    const claimed = {
      jsonrpc: '2.0',
      id: 'm',
      method: 'tools/list',
      params: { _meta: { [MCP_META_KEYS.protocolVersion]: MODERN, [MCP_META_KEYS.clientCapabilities]: {} } },
    };
    const answers = await expectBatch(await legacyPost(app, [claimed, ping('p')]));
    expect(answers[0]).toEqual({
      jsonrpc: '2.0',
      id: 'm',
      error: { code: -32600, message: 'Invalid Request: a 2026-07-28 request cannot be part of a batch' },
    });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  for (const version of ['2024-11-05', '2025-06-18', '2025-11-25', MODERN]) {
    test(`refused under ${version} with 400 -32600`, async () => {
      await expectIdNullError(
        await legacyPost(app, [ping(1)], { 'mcp-protocol-version': version }),
        -32600,
        `batches are not allowed in protocol revision`,
      );
    });
  }

  test('refused under an unsupported header value too', async () => {
    await expectIdNullError(
      await legacyPost(app, [ping(1)], { 'mcp-protocol-version': 'garbage' }),
      -32600,
      '"garbage"',
    );
  });

  test('refused by a handler that does not serve 2025-03-26', async () => {
    const narrow = createFixture({ handler: { protocolVersions: ['2025-11-25', MODERN] } });
    await expectIdNullError(await legacyPost(narrow.app, [ping(1)]), -32600, 'batches are not allowed');
  });
});

describe('session ids: optional, never required, never minted', () => {
  test('initialize mints no Mcp-Session-Id', async () => {
    const res = await legacyPost(app, initialize('2025-03-26'));
    expect(res.headers.get('mcp-session-id')).toBeNull();
    await expectRpcResult(res, 'init');
  });

  test('a sent Mcp-Session-Id (and Last-Event-ID) is ignored and never echoed', async () => {
    const headers = {
      'mcp-session-id': 'made-up-session',
      'last-event-id': '42',
      'mcp-protocol-version': '2025-11-25',
    };
    const res = await legacyPost(app, rpc('tools/list', undefined, 's'), headers);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(((await expectRpcResult(res, 's')).tools as unknown[]).length).toBe(TOOL_NAMES.length);
    const accepted = await legacyPost(app, note, headers);
    expect(accepted.headers.get('mcp-session-id')).toBeNull();
    await expectAccepted(accepted);
  });

  test('DELETE (session termination) is 405 through the App and from the bare handler', async () => {
    const viaApp = await send(app, { 'mcp-session-id': 'made-up-session' }, null, 'DELETE');
    expect(viaApp.headers.get('allow')).toContain('POST');
    await expectProblem(viaApp, 405, 'method-not-allowed');
    const bare = await send(fx.handler, { 'mcp-session-id': 'made-up-session' }, null, 'DELETE');
    expect(bare.headers.get('allow')).toBe('POST, OPTIONS');
    await expectProblem(bare, 405, 'method-not-allowed', 'DELETE is not supported here');
  });

  test('GET offers no stream: 405 with a JSON hint (what a v1 client probes after initialize)', async () => {
    const res = await send(
      app,
      { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      null,
      'GET',
    );
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    const problem = await expectProblem(res, 405, 'method-not-allowed', 'no server-to-client stream');
    expect(problem).toMatchObject({
      transport: 'streamable-http',
      protocolVersions: [...ALL_VERSIONS_NEWEST_FIRST].reverse(),
      hint: 'POST JSON-RPC 2.0 messages to this URL',
    });
    // GET runs without the POST route's hooks: the hint names no tools.
    expect('tools' in problem).toBe(false);
  });

  test('OPTIONS answers 204 with Allow and no body', async () => {
    const res = await send(app, {}, null, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });
});

describe('the tool request context on a legacy request', () => {
  test('has the revision of the header, era legacy, empty client capabilities and no clientInfo', async () => {
    const body = rpc('tools/call', { name: 'inspect', arguments: {} }, 'lc');
    const headers = { 'mcp-protocol-version': '2025-06-18' };
    const ctx = await inspectedContext(fx, () => legacyPost(app, body, headers), 'lc');
    expect(Object.keys(ctx).sort()).toEqual(
      [
        'clientCapabilities',
        'elicit',
        'era',
        'id',
        'listRoots',
        'log',
        'method',
        'progress',
        'protocolVersion',
        'request',
        'sample',
      ].sort(),
    );
    expect(ctx).toMatchObject({
      protocolVersion: '2025-06-18',
      era: 'legacy',
      id: 'lc',
      method: 'tools/call',
      clientCapabilities: {},
    });
  });
});

/**
 * The 2026-07-28 era by hand-built requests: the validation ladder of mcp.md §5.2 step by step and
 * in its order (each step's good and bad path), the error codes -32020/-32021/-32022/-32601/-32602,
 * result decoration (resultType, serverInfo, cache hints), `_meta` options, and the input-required
 * round trip with every way a `requestState` can be forged, replayed, re-bound or expired.
 */
import { describe, expect, test } from 'bun:test';
import { encodeBase64, encodeBase64Url } from '@charter/core';
import { encodeMcpHeaderValue, MCP_META_KEYS } from '@charter/mcp';
import {
  ALL_VERSIONS_NEWEST_FIRST,
  createFixture,
  expectAccepted,
  expectMethodNotFound,
  expectRpcError,
  expectRpcResult,
  firstText,
  inspectedContext,
  INSTRUCTIONS,
  legacyPost,
  MODERN,
  meta,
  modern,
  modernPost,
  PROMPT_NAMES,
  RESOURCE_URIS,
  rpc,
  SERVER_INFO,
  TEMPLATE_URIS,
  TOOL_NAMES,
} from './support.ts';

const fx = createFixture();
const { app } = fx;

/** A sentinel-encoded header value, built by hand (not with the module's encoder). */
const sentinel = (text: string) =>
  `=?base64?${encodeBase64(new TextEncoder().encode(text), 'base64', { pad: true })}?=`;

const META_MISSING = /params\._meta/;

describe('modern ladder step 5: params._meta carries protocolVersion and clientCapabilities', () => {
  test('a request with both fields is served', async () => {
    const result = await expectRpcResult(await modernPost(app, modern('tools/list')), 1);
    expect(result.resultType).toBe('complete');
  });

  test('a request with the modern header but no _meta is refused with -32602 and HTTP 400', async () => {
    const body = { jsonrpc: '2.0' as const, id: 'no-meta', method: 'tools/list', params: {} };
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
      status: 400,
      code: -32602,
      id: 'no-meta',
      message: META_MISSING,
    });
  });

  test('a request with the modern header and no params at all is refused the same way', async () => {
    const body = { jsonrpc: '2.0' as const, id: 3, method: 'tools/list' };
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
      status: 400,
      code: -32602,
      id: 3,
      message: META_MISSING,
    });
  });

  test('_meta without protocolVersion is -32602 (the header still makes it modern)', async () => {
    const body = modern('tools/list', {}, 4, meta({ omit: [MCP_META_KEYS.protocolVersion] }));
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
      status: 400,
      code: -32602,
      id: 4,
      message: MCP_META_KEYS.protocolVersion,
    });
  });

  test('_meta without clientCapabilities is -32602', async () => {
    const body = modern('tools/list', {}, 5, meta({ omit: [MCP_META_KEYS.clientCapabilities] }));
    await expectRpcError(await modernPost(app, body), {
      status: 400,
      code: -32602,
      id: 5,
      message: MCP_META_KEYS.clientCapabilities,
    });
  });

  test('clientCapabilities that is not an object (array, null, string) is -32602', async () => {
    for (const capabilities of [[], null, 'elicitation']) {
      // null is "not given" to meta(); set it by hand.
      const value = meta();
      value[MCP_META_KEYS.clientCapabilities] = capabilities;
      await expectRpcError(await modernPost(app, modern('tools/list', {}, 6, value)), {
        status: 400,
        code: -32602,
        id: 6,
        message: MCP_META_KEYS.clientCapabilities,
      });
    }
  });

  test('a protocolVersion that is not a string is -32602', async () => {
    const body = modern('tools/list', {}, 7, meta({ version: 20260728 }));
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
      status: 400,
      code: -32602,
      id: 7,
      message: META_MISSING,
    });
  });

  test('a _meta that is an array or a string is no _meta', async () => {
    for (const value of [[], 'meta']) {
      const body = { jsonrpc: '2.0' as const, id: 8, method: 'tools/list', params: { _meta: value } };
      await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
        status: 400,
        code: -32602,
        id: 8,
        message: META_MISSING,
      });
    }
  });

  test('order: a missing _meta field is reported before a missing header', async () => {
    const body = modern('tools/list', {}, 9, meta({ omit: [MCP_META_KEYS.clientCapabilities] }));
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': null, 'mcp-method': null }), {
      status: 400,
      code: -32602,
      id: 9,
      message: MCP_META_KEYS.clientCapabilities,
    });
  });
});

describe('modern ladder step 4: notifications are accepted before the _meta and header checks', () => {
  test('a notification with full modern _meta and headers is 202 with no body', async () => {
    const body = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { _meta: meta() } };
    await expectAccepted(await modernPost(app, body));
  });

  test('a notification with a modern header but no _meta and a wrong Mcp-Method is 202 all the same', async () => {
    const body = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };
    await expectAccepted(
      await modernPost(app, body, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }),
    );
  });

  test('the same message with an id is a request, refused as a notification that carries an id', async () => {
    const body = {
      jsonrpc: '2.0' as const,
      id: 'n',
      method: 'notifications/cancelled',
      params: { _meta: meta() },
    };
    await expectRpcError(await modernPost(app, body), {
      status: 400,
      code: -32600,
      id: 'n',
      message: 'must not carry an id',
    });
  });
});

describe('modern ladder step 6: MCP-Protocol-Version equals the _meta version', () => {
  test('an equal header passes (the good path)', async () => {
    await expectRpcResult(
      await modernPost(app, modern('tools/list', {}, 10), { 'mcp-protocol-version': MODERN }),
      10,
    );
  });

  test('a missing header is -32020 HeaderMismatch with HTTP 400', async () => {
    await expectRpcError(
      await modernPost(app, modern('tools/list', {}, 11), { 'mcp-protocol-version': null }),
      {
        status: 400,
        code: -32020,
        id: 11,
        message: 'MCP-Protocol-Version header is missing',
      },
    );
  });

  test('a header naming another served version is -32020', async () => {
    const res = await modernPost(app, modern('tools/list', {}, 12), { 'mcp-protocol-version': '2025-11-25' });
    await expectRpcError(res, {
      status: 400,
      code: -32020,
      id: 12,
      message: 'does not match params._meta protocolVersion',
    });
  });

  test('order: equality before support, so an unsupported _meta version with another header is -32020', async () => {
    const body = modern('tools/list', {}, 13, meta({ version: '2099-01-01' }));
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': MODERN }), {
      status: 400,
      code: -32020,
      id: 13,
      message: 'does not match',
    });
  });

  test('order: an unsupported header with a supported _meta version is -32020 too', async () => {
    const res = await modernPost(app, modern('tools/list', {}, 14), { 'mcp-protocol-version': '2099-01-01' });
    await expectRpcError(res, { status: 400, code: -32020, id: 14, message: 'does not match' });
  });
});

describe('modern ladder step 7: the version is served', () => {
  test('an unsupported version in both places is -32022 with every served version, newest first', async () => {
    const body = modern('tools/list', {}, 'v', meta({ version: '2099-01-01' }));
    const error = await expectRpcError(await modernPost(app, body), {
      status: 400,
      code: -32022,
      id: 'v',
      message: 'Unsupported protocol version',
    });
    expect(error.data).toEqual({ supported: ALL_VERSIONS_NEWEST_FIRST, requested: '2099-01-01' });
  });

  test('a version string that is not a date is -32022 and named in data.requested', async () => {
    const body = modern('tools/list', {}, 15, meta({ version: 'latest' }));
    const error = await expectRpcError(await modernPost(app, body), {
      status: 400,
      code: -32022,
      id: 15,
      message: '"latest"',
    });
    expect(error.data).toEqual({ supported: ALL_VERSIONS_NEWEST_FIRST, requested: 'latest' });
  });

  test('data.supported lists only what this handler serves', async () => {
    const only = createFixture({ handler: { protocolVersions: ['2025-06-18', MODERN] } });
    const body = modern('tools/list', {}, 16, meta({ version: '2030-01-01' }));
    const error = await expectRpcError(await modernPost(only.app, body), {
      status: 400,
      code: -32022,
      id: 16,
      message: 'Unsupported',
    });
    expect(error.data).toEqual({ supported: [MODERN, '2025-06-18'], requested: '2030-01-01' });
  });

  test('a modern handler that does not serve 2026-07-28 refuses it with -32022', async () => {
    const legacyOnly = createFixture({ handler: { protocolVersions: ['2025-11-25'] } });
    const error = await expectRpcError(await modernPost(legacyOnly.app, modern('tools/list', {}, 17)), {
      status: 400,
      code: -32022,
      id: 17,
      message: MODERN,
    });
    expect(error.data).toEqual({ supported: ['2025-11-25'], requested: MODERN });
  });

  test('a served legacy revision claimed through _meta is -32022: legacy revisions have no per-request _meta', async () => {
    for (const method of ['server/discover', 'initialize']) {
      const body = modern(method, {}, 'legacy-claim', meta({ version: '2025-11-25' }));
      const error = await expectRpcError(await modernPost(app, body), {
        status: 400,
        code: -32022,
        id: 'legacy-claim',
        message: '"2025-11-25"',
      });
      expect(error.data).toEqual({ supported: ALL_VERSIONS_NEWEST_FIRST, requested: '2025-11-25' });
    }
  });

  test('a modern request whose params are an array is 400 -32602, like one without _meta', async () => {
    const body = {
      jsonrpc: '2.0' as const,
      id: 'arr',
      method: 'tools/list',
      params: [] as unknown as Record<string, unknown>,
    };
    await expectRpcError(
      await modernPost(app, body, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }),
      { status: 400, code: -32602, id: 'arr', message: 'params must be an object' },
    );
  });

  test('order: the version is judged before Mcp-Method', async () => {
    const body = modern('tools/list', {}, 18, meta({ version: '2099-01-01' }));
    await expectRpcError(await modernPost(app, body, { 'mcp-method': null }), {
      status: 400,
      code: -32022,
      id: 18,
      message: 'Unsupported',
    });
  });
});

describe('modern ladder step 8: Mcp-Method equals the method', () => {
  test('a missing Mcp-Method is -32020', async () => {
    await expectRpcError(await modernPost(app, modern('tools/list', {}, 20), { 'mcp-method': null }), {
      status: 400,
      code: -32020,
      id: 20,
      message: 'Mcp-Method header is missing',
    });
  });

  test('a different Mcp-Method is -32020', async () => {
    await expectRpcError(
      await modernPost(app, modern('tools/list', {}, 21), { 'mcp-method': 'prompts/list' }),
      {
        status: 400,
        code: -32020,
        id: 21,
        message: 'Mcp-Method header does not match',
      },
    );
  });

  test('values are case-sensitive: TOOLS/LIST is not tools/list', async () => {
    await expectRpcError(
      await modernPost(app, modern('tools/list', {}, 22), { 'mcp-method': 'TOOLS/LIST' }),
      {
        status: 400,
        code: -32020,
        id: 22,
        message: 'Mcp-Method header does not match',
      },
    );
  });

  test('header names are not case-sensitive, and surrounding whitespace is not part of the value', async () => {
    const res = await modernPost(app, modern('tools/list', {}, 23), {
      'mcp-method': null,
      'MCP-METHOD': ' tools/list ',
    });
    await expectRpcResult(res, 23);
  });

  test('order: Mcp-Method is checked before Mcp-Name', async () => {
    const body = modern('tools/call', { name: 'list_items' }, 24);
    await expectRpcError(await modernPost(app, body, { 'mcp-method': 'tools/list', 'mcp-name': null }), {
      status: 400,
      code: -32020,
      id: 24,
      message: 'Mcp-Method',
    });
  });

  test('order: a mismatched Mcp-Method on an unknown method is -32020, not 404', async () => {
    await expectRpcError(
      await modernPost(app, modern('tools/destroy', {}, 25), { 'mcp-method': 'tools/list' }),
      {
        status: 400,
        code: -32020,
        id: 25,
        message: 'Mcp-Method',
      },
    );
  });
});

describe('modern ladder step 9: Mcp-Name mirrors params.name or params.uri', () => {
  const cases = [
    { method: 'tools/call', params: { name: 'list_items' }, field: 'name', other: 'echo' },
    {
      method: 'prompts/get',
      params: { name: 'greet', arguments: { name: 'Ada' } },
      field: 'name',
      other: 'review',
    },
    { method: 'resources/read', params: { uri: 'docs://readme' }, field: 'uri', other: 'docs://license' },
  ] as const;

  for (const { method, params, field, other } of cases) {
    test(`${method}: a matching Mcp-Name is served`, async () => {
      const result = await expectRpcResult(await modernPost(app, modern(method, params, 30)), 30);
      expect(result.resultType).toBe('complete');
    });

    test(`${method}: a missing Mcp-Name is -32020`, async () => {
      await expectRpcError(await modernPost(app, modern(method, params, 31), { 'mcp-name': null }), {
        status: 400,
        code: -32020,
        id: 31,
        message: 'Mcp-Name header is missing',
      });
    });

    test(`${method}: a different Mcp-Name is -32020 naming params.${field}`, async () => {
      await expectRpcError(await modernPost(app, modern(method, params, 32), { 'mcp-name': other }), {
        status: 400,
        code: -32020,
        id: 32,
        message: `does not match params.${field}`,
      });
    });
  }

  test('the Base64 sentinel form of a plain name is accepted', async () => {
    const res = await modernPost(app, modern('tools/call', { name: 'list_items' }, 33), {
      'mcp-name': sentinel('list_items'),
    });
    expect(firstText(await expectRpcResult(res, 33))).toBe('alpha, beta, gamma');
  });

  test('a non-ASCII URI travels as the sentinel and is served', async () => {
    const uri = 'docs://tags/café';
    const headerValue = encodeMcpHeaderValue(uri);
    expect(headerValue).toBe(sentinel(uri));
    const result = await expectRpcResult(await modernPost(app, modern('resources/read', { uri }, 34)), 34);
    expect(result.contents).toEqual([{ uri, text: 'Pages tagged café' }]);
  });

  test('a malformed sentinel is refused: unpadded, bad alphabet, bad UTF-8, upper-case prefix', async () => {
    const badUtf8 = `=?base64?${encodeBase64(new Uint8Array([0xff, 0xfe]), 'base64', { pad: true })}?=`;
    for (const value of [
      '=?base64?bGlzdF9pdGVtcw?=',
      '=?base64?!!!!?=',
      badUtf8,
      '=?BASE64?bGlzdF9pdGVtcw==?=',
    ]) {
      const res = await modernPost(app, modern('tools/call', { name: 'list_items' }, 35), {
        'mcp-name': value,
      });
      await expectRpcError(res, {
        status: 400,
        code: -32020,
        id: 35,
        message: 'Mcp-Name header does not match',
      });
    }
  });

  test('a name that looks like the sentinel must itself be encoded', async () => {
    // The prompt does not exist, so the served answer is -32602: what matters is that the header passed.
    const name = '=?base64?eA==?=';
    const res = await modernPost(app, modern('prompts/get', { name }, 36), { 'mcp-name': name });
    await expectRpcError(res, { status: 400, code: -32020, id: 36, message: 'Mcp-Name' });
    const encoded = await modernPost(app, modern('prompts/get', { name }, 37));
    await expectRpcError(encoded, { status: 200, code: -32602, id: 37, message: 'Unknown prompt' });
  });

  test('Mcp-Name on a method that mirrors nothing is ignored', async () => {
    await expectRpcResult(
      await modernPost(app, modern('tools/list', {}, 38), { 'mcp-name': 'whatever' }),
      38,
    );
  });

  test('order: the header is checked before the tool is looked up', async () => {
    const mismatch = await modernPost(app, modern('tools/call', { name: 'nope' }, 39), {
      'mcp-name': 'other',
    });
    await expectRpcError(mismatch, { status: 400, code: -32020, id: 39, message: 'Mcp-Name' });
    const unknown = await modernPost(app, modern('tools/call', { name: 'nope' }, 40));
    await expectRpcError(unknown, { status: 200, code: -32602, id: 40, message: 'Unknown tool: "nope"' });
  });
});

describe('modern ladder step 10: Mcp-Param-* mirror x-mcp-header arguments', () => {
  const call = (args: Record<string, unknown>, id: number) =>
    modern('tools/call', { name: 'weather', arguments: args }, id);
  const mirrors = { 'mcp-param-region': 'eu-west', 'mcp-param-days': '3', 'mcp-param-metric': 'true' };

  test('headers equal to the arguments are served', async () => {
    const res = await modernPost(app, call({ region: 'eu-west', days: 3, metric: true }, 50), mirrors);
    expect(firstText(await expectRpcResult(res, 50))).toBe('Sunny in eu-west for 3 day(s)');
  });

  test('a missing header for a present argument is -32020', async () => {
    const res = await modernPost(app, call({ region: 'eu-west', days: 3, metric: true }, 51), {
      ...mirrors,
      'mcp-param-region': null,
    });
    await expectRpcError(res, {
      status: 400,
      code: -32020,
      id: 51,
      message: 'Mcp-Param-Region header is missing',
    });
  });

  test('a header that disagrees with its argument is -32020 and does not echo the value', async () => {
    const res = await modernPost(app, call({ region: 'eu-west' }, 52), { 'mcp-param-region': 'us-east' });
    const error = await expectRpcError(res, {
      status: 400,
      code: -32020,
      id: 52,
      message: 'Mcp-Param-Region header does not match',
    });
    expect(error.message).not.toContain('us-east');
  });

  test('a header for an absent argument is -32020', async () => {
    const res = await modernPost(app, call({ region: 'eu-west' }, 53), {
      'mcp-param-region': 'eu-west',
      'mcp-param-days': '3',
    });
    await expectRpcError(res, {
      status: 400,
      code: -32020,
      id: 53,
      message: 'Mcp-Param-Days header is present',
    });
  });

  test('a null argument takes no header (and then fails validation as an integer)', async () => {
    const res = await modernPost(app, call({ region: 'eu-west', days: null }, 54), {
      'mcp-param-region': 'eu-west',
    });
    await expectRpcError(res, { status: 200, code: -32602, id: 54, message: 'arguments.days' });
  });

  test('integers compare numerically: 42.0, 4.2e1 and 42 all mirror 42', async () => {
    for (const days of ['42', '42.0', '4.2e1', '420e-1']) {
      const res = await modernPost(app, call({ region: 'eu-west', days: 42 }, 55), {
        'mcp-param-region': 'eu-west',
        'mcp-param-days': days,
      });
      expect(firstText(await expectRpcResult(res, 55))).toContain('42 day(s)');
    }
  });

  test('an integer header that is another number or not a JSON number is -32020', async () => {
    for (const [days, message] of [
      ['42.5', 'does not match'],
      ['43', 'does not match'],
      ['042', 'must be a decimal number'],
      ['0x2A', 'must be a decimal number'],
      ['forty-two', 'must be a decimal number'],
    ] as const) {
      const res = await modernPost(app, call({ region: 'eu-west', days: 42 }, 56), {
        'mcp-param-region': 'eu-west',
        'mcp-param-days': days,
      });
      await expectRpcError(res, { status: 400, code: -32020, id: 56, message });
    }
  });

  test('booleans are exactly "true" or "false"', async () => {
    const ok = await modernPost(app, call({ region: 'eu-west', metric: false }, 57), {
      'mcp-param-region': 'eu-west',
      'mcp-param-metric': 'false',
    });
    await expectRpcResult(ok, 57);
    for (const [metric, message] of [
      ['true', 'does not match'],
      ['TRUE', 'must be "true" or "false"'],
      ['1', 'must be "true" or "false"'],
    ] as const) {
      const res = await modernPost(app, call({ region: 'eu-west', metric: false }, 58), {
        'mcp-param-region': 'eu-west',
        'mcp-param-metric': metric,
      });
      await expectRpcError(res, { status: 400, code: -32020, id: 58, message });
    }
  });

  test('a non-ASCII string travels as the sentinel; sent raw or malformed it is refused', async () => {
    const region = 'Zürich';
    const ok = await modernPost(app, call({ region }, 59), { 'mcp-param-region': sentinel(region) });
    expect(firstText(await expectRpcResult(ok, 59))).toContain('Zürich');
    const bad = await modernPost(app, call({ region }, 60), { 'mcp-param-region': '=?base64?WsO8cmljaA?=' });
    await expectRpcError(bad, { status: 400, code: -32020, id: 60, message: 'malformed Base64 sentinel' });
  });

  test('a Mcp-Param-* header the tool does not declare is ignored', async () => {
    const res = await modernPost(app, call({ region: 'eu-west' }, 61), {
      'mcp-param-region': 'eu-west',
      'mcp-param-unknown': 'x',
    });
    await expectRpcResult(res, 61);
  });

  test('order: a header mismatch is reported before argument validation', async () => {
    const res = await modernPost(app, call({ region: 'eu-west', note: 42 }, 62), {
      'mcp-param-region': 'us',
    });
    await expectRpcError(res, { status: 400, code: -32020, id: 62, message: 'Mcp-Param-Region' });
    const valid = await modernPost(app, call({ region: 'eu-west', note: 42 }, 63), {
      'mcp-param-region': 'eu-west',
    });
    await expectRpcError(valid, { status: 200, code: -32602, id: 63, message: 'arguments.note' });
  });
});

describe('modern dispatch: unknown and removed methods', () => {
  test('an unknown method is HTTP 404 with -32601', async () => {
    await expectMethodNotFound(app, 'modern', { method: 'tools/destroy', id: 70 });
  });

  for (const method of [
    'initialize',
    'ping',
    'logging/setLevel',
    'resources/subscribe',
    'resources/unsubscribe',
  ]) {
    test(`${method}, removed in 2026-07-28, is HTTP 404 with -32601`, async () => {
      const params =
        method === 'initialize'
          ? { protocolVersion: MODERN, capabilities: {} }
          : { uri: 'docs://readme', level: 'info' };
      await expectMethodNotFound(app, 'modern', {
        method,
        params,
        id: `removed-${method}`,
        message: 'not part of protocol revision 2026-07-28',
      });
    });
  }

  test('subscriptions/listen on a server with nothing to notify (no resources) is 404 -32601', async () => {
    const toolsOnly = createFixture({ handler: { resources: [], resourceTemplates: [] } });
    await expectMethodNotFound(toolsOnly.app, 'modern', {
      method: 'subscriptions/listen',
      params: { notifications: {} },
      id: 71,
      message: 'nothing to notify',
    });
  });

  test('subscriptions/listen on a server with resources is served (tests/mcp/listen.test.ts): an event stream', async () => {
    const res = await modernPost(app, modern('subscriptions/listen', { notifications: {} }, 74));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    await res.body?.cancel();
  });

  test('subscriptions/listen in the legacy era stays an unknown method: 200 -32601', async () => {
    await expectMethodNotFound(app, 'legacy', {
      method: 'subscriptions/listen',
      params: { notifications: {} },
      id: 75,
      message: 'subscriptions/listen',
    });
  });

  test('completion/complete is 404 -32601 on a server that declares no completions', async () => {
    const bare = createFixture({ handler: { prompts: [], resourceTemplates: [] } });
    const body = modern(
      'completion/complete',
      { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } },
      72,
    );
    await expectRpcError(await modernPost(bare.app, body), {
      status: 404,
      code: -32601,
      id: 72,
      message: 'completion/complete',
    });
  });

  test('a method name of prototype keys is unknown, not a crash', async () => {
    for (const method of ['toString', 'hasOwnProperty', 'valueOf']) {
      await expectMethodNotFound(app, 'modern', { method, id: 73, message: method });
    }
  });
});

describe('every modern error echoes the request id', () => {
  const scenarios: readonly {
    name: string;
    run: (id: string | number) => Promise<Response>;
    status: number;
    code: number;
    message: string;
  }[] = [
    {
      name: 'missing _meta',
      message: 'params._meta',
      status: 400,
      code: -32602,
      run: (id) =>
        modernPost(app, { jsonrpc: '2.0', id, method: 'tools/list' }, { 'mcp-protocol-version': MODERN }),
    },
    {
      name: 'header mismatch',
      message: 'MCP-Protocol-Version header is missing',
      status: 400,
      code: -32020,
      run: (id) => modernPost(app, modern('tools/list', {}, id), { 'mcp-protocol-version': null }),
    },
    {
      name: 'unsupported version',
      message: 'Unsupported protocol version',
      status: 400,
      code: -32022,
      run: (id) => modernPost(app, modern('tools/list', {}, id, meta({ version: '2030-01-01' }))),
    },
    {
      name: 'Mcp-Method mismatch',
      message: 'Mcp-Method header does not match',
      status: 400,
      code: -32020,
      run: (id) => modernPost(app, modern('tools/list', {}, id), { 'mcp-method': 'x' }),
    },
    {
      name: 'Mcp-Name mismatch',
      message: 'Mcp-Name header does not match',
      status: 400,
      code: -32020,
      run: (id) => modernPost(app, modern('tools/call', { name: 'echo' }, id), { 'mcp-name': 'x' }),
    },
    {
      name: 'Mcp-Param mismatch',
      message: 'Mcp-Param-Region header does not match',
      status: 400,
      code: -32020,
      run: (id) =>
        modernPost(app, modern('tools/call', { name: 'weather', arguments: { region: 'a' } }, id), {
          'mcp-param-region': 'b',
        }),
    },
    {
      name: 'missing capability',
      message: 'Missing required client capability',
      status: 400,
      code: -32021,
      run: (id) =>
        modernPost(app, modern('tools/call', { name: 'confirm_delete', arguments: { item: 'x' } }, id)),
    },
    {
      name: 'unknown method',
      message: 'Method not found',
      status: 404,
      code: -32601,
      run: (id) => modernPost(app, modern('nope/nope', {}, id)),
    },
    {
      name: 'invalid arguments',
      message: 'Invalid arguments for tool "echo"',
      status: 200,
      code: -32602,
      run: (id) => modernPost(app, modern('tools/call', { name: 'echo', arguments: {} }, id)),
    },
    {
      name: 'resource not found',
      message: 'Resource not found',
      status: 200,
      code: -32602,
      run: (id) => modernPost(app, modern('resources/read', { uri: 'docs://nothing' }, id)),
    },
    {
      name: 'handler crash',
      message: 'Tool execution failed',
      status: 200,
      code: -32603,
      run: (id) =>
        modernPost(app, modern('tools/call', { name: 'explode', arguments: { kind: 'error' } }, id)),
    },
  ];

  for (const id of ['req-α', '', 0, 7, -3, Number.MAX_SAFE_INTEGER]) {
    test(`id ${JSON.stringify(id)} comes back on every kind of error`, async () => {
      for (const scenario of scenarios) {
        const res = await scenario.run(id);
        expect({ scenario: scenario.name, status: res.status }).toEqual({
          scenario: scenario.name,
          status: scenario.status,
        });
        await expectRpcError(res, { ...scenario, id });
      }
    });
  }
});

describe('modern results: resultType, serverInfo and cache hints', () => {
  const calls = [
    { method: 'server/discover', params: {}, cacheable: true },
    { method: 'tools/list', params: {}, cacheable: true },
    { method: 'resources/list', params: {}, cacheable: true },
    { method: 'resources/templates/list', params: {}, cacheable: true },
    { method: 'prompts/list', params: {}, cacheable: true },
    { method: 'resources/read', params: { uri: 'docs://pages/intro' }, cacheable: true },
    { method: 'tools/call', params: { name: 'list_items' }, cacheable: false },
    { method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada' } }, cacheable: false },
    {
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } },
      cacheable: false,
    },
  ] as const;

  for (const { method, params, cacheable } of calls) {
    test(`${method}: resultType "complete", serverInfo in _meta, cache hints ${cacheable ? 'present' : 'absent'}`, async () => {
      const result = await expectRpcResult(await modernPost(app, modern(method, params, method)), method);
      expect(result.resultType).toBe('complete');
      expect(result._meta).toEqual({ [MCP_META_KEYS.serverInfo]: SERVER_INFO });
      if (cacheable) {
        expect(result.ttlMs).toBe(0);
        expect(result.cacheScope).toBe('private');
      } else {
        expect('ttlMs' in result).toBe(false);
        expect('cacheScope' in result).toBe(false);
      }
    });
  }

  test('the cache option is reflected on all six cacheable results and nowhere else', async () => {
    const cached = createFixture({ handler: { cache: { ttlMs: 60_000, scope: 'public' } } });
    for (const { method, params, cacheable } of calls) {
      const result = await expectRpcResult(await modernPost(cached.app, modern(method, params, 80)), 80);
      if (cacheable) expect([method, result.ttlMs, result.cacheScope]).toEqual([method, 60_000, 'public']);
      else expect([method, 'ttlMs' in result, 'cacheScope' in result]).toEqual([method, false, false]);
    }
  });

  test('every page of a paged list carries the same cache hints', async () => {
    const paged = createFixture({ handler: { pageSize: 3, cache: { ttlMs: 5, scope: 'public' } } });
    let cursor: string | undefined;
    const names: string[] = [];
    do {
      const params = cursor === undefined ? {} : { cursor };
      const result = await expectRpcResult(await modernPost(paged.app, modern('tools/list', params, 81)), 81);
      expect([result.resultType, result.ttlMs, result.cacheScope]).toEqual(['complete', 5, 'public']);
      names.push(...(result.tools as { name: string }[]).map((tool) => tool.name));
      cursor = result.nextCursor as string | undefined;
    } while (cursor !== undefined);
    expect(names).toEqual([...TOOL_NAMES]);
  });

  test('server/discover lists the versions newest first, the honoured capabilities and the instructions', async () => {
    const result = await expectRpcResult(await modernPost(app, modern('server/discover', {}, 82)), 82);
    expect(result.supportedVersions).toEqual(ALL_VERSIONS_NEWEST_FIRST);
    // Resources are subscribable on a subscriptions/listen stream (tests/mcp/listen.test.ts).
    expect(result.capabilities).toEqual({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
    });
    expect(result.instructions).toBe(INSTRUCTIONS);
  });

  test('the lists hold every declared record in order', async () => {
    const list = async (method: string, key: string, field: string) => {
      const result = await expectRpcResult(await modernPost(app, modern(method, {}, 83)), 83);
      expect('nextCursor' in result).toBe(false);
      return (result[key] as Record<string, unknown>[]).map((entry) => entry[field]);
    };
    expect(await list('tools/list', 'tools', 'name')).toEqual([...TOOL_NAMES]);
    expect(await list('resources/list', 'resources', 'uri')).toEqual([...RESOURCE_URIS]);
    expect(await list('resources/templates/list', 'resourceTemplates', 'uriTemplate')).toEqual([
      ...TEMPLATE_URIS,
    ]);
    expect(await list('prompts/list', 'prompts', 'name')).toEqual([...PROMPT_NAMES]);
  });

  test('a missing resource is -32602 with data.uri in the modern era (never -32002)', async () => {
    const error = await expectRpcError(
      await modernPost(app, modern('resources/read', { uri: 'docs://pages/nope' }, 84)),
      {
        status: 200,
        code: -32602,
        id: 84,
        message: 'Resource not found',
      },
    );
    expect(error.data).toEqual({ uri: 'docs://pages/nope' });
  });

  test('the handler is told the modern revision and era', async () => {
    const result = await expectRpcResult(
      await modernPost(app, modern('tools/call', { name: 'inspect' }, 'ctx')),
      'ctx',
    );
    expect(result.structuredContent).toMatchObject({
      protocolVersion: MODERN,
      era: 'modern',
      id: 'ctx',
      method: 'tools/call',
    });
  });
});

describe('the tool request context (framework.md "Tool request context")', () => {
  test('carries exactly the spec fields on a modern request, plus the progress and log reporters', async () => {
    const clientInfo = { name: 'agent', version: '0.1' };
    const body = modern(
      'tools/call',
      { name: 'inspect', arguments: {} },
      'fields',
      meta({ capabilities: { elicitation: {} }, clientInfo, logLevel: 'info' }),
    );
    const ctx = await inspectedContext(fx, () => modernPost(app, body), 'fields');
    expect(Object.keys(ctx).sort()).toEqual(
      [
        'clientCapabilities',
        'clientInfo',
        'elicit',
        'era',
        'id',
        'listRoots',
        'log',
        'logLevel',
        'method',
        'progress',
        'protocolVersion',
        'request',
        'sample',
      ].sort(),
    );
    expect(ctx.request).toBeInstanceOf(Request);
    expect(ctx).toMatchObject({
      protocolVersion: MODERN,
      era: 'modern',
      id: 'fields',
      method: 'tools/call',
      clientCapabilities: { elicitation: {} },
      clientInfo,
      logLevel: 'info',
    });
    expect(typeof ctx.progress).toBe('function');
    expect(typeof ctx.log).toBe('function');
  });
});

describe('modern _meta: logLevel, clientInfo and clientCapabilities', () => {
  const inspect = (metaValue: Record<string, unknown>, id: number) =>
    modernPost(app, modern('tools/call', { name: 'inspect' }, id, metaValue));

  test('every RFC 5424 level name is accepted and reaches the handler', async () => {
    for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']) {
      const result = await expectRpcResult(await inspect(meta({ logLevel: level }), 90), 90);
      expect((result.structuredContent as { logLevel: string }).logLevel).toBe(level);
    }
  });

  test('an unknown level, a level in upper case or a non-string is -32602 with HTTP 400', async () => {
    for (const level of ['verbose', 'DEBUG', 3, {}]) {
      await expectRpcError(await inspect(meta({ logLevel: level }), 91), {
        status: 400,
        code: -32602,
        id: 91,
        message: MCP_META_KEYS.logLevel,
      });
    }
  });

  test('clientInfo is optional and, when sent, handed to the handler unchanged (advisory only)', async () => {
    const without = await expectRpcResult(await inspect(meta(), 92), 92);
    expect((without.structuredContent as { clientInfo: unknown }).clientInfo).toBeNull();
    const clientInfo = { name: 'admin-console', version: '0.1', title: 'Trust me' };
    const withInfo = await expectRpcResult(await inspect(meta({ clientInfo }), 93), 93);
    expect((withInfo.structuredContent as { clientInfo: unknown }).clientInfo).toEqual(clientInfo);
  });

  test('a clientInfo that is not an object is -32602', async () => {
    await expectRpcError(await inspect(meta({ clientInfo: 'agent/1.0' }), 94), {
      status: 400,
      code: -32602,
      id: 94,
      message: MCP_META_KEYS.clientInfo,
    });
  });

  test('the declared client capabilities reach the handler as sent', async () => {
    const capabilities = { elicitation: { form: {} }, experimental: { x: {} } };
    const result = await expectRpcResult(await inspect(meta({ capabilities }), 95), 95);
    expect((result.structuredContent as { clientCapabilities: unknown }).clientCapabilities).toEqual(
      capabilities,
    );
  });
});

const FORGED = 'was not issued by this server for this request';
const ELICIT = meta({ capabilities: { elicitation: {} } });

/** A tools/call of confirm_delete, optionally a retry with responses and a state. */
function confirmDelete(
  id: string | number,
  item: string,
  retry: { inputResponses?: unknown; requestState?: unknown } = {},
  metaValue = ELICIT,
) {
  return modern('tools/call', { name: 'confirm_delete', arguments: { item }, ...retry }, id, metaValue);
}

/** Issues a fresh state for `item` (first round) and returns it. */
async function firstRound(item: string, headers: Record<string, string> = {}, target = fx): Promise<string> {
  const result = await expectRpcResult(
    await modernPost(target.app, confirmDelete('first', item), headers),
    'first',
  );
  expect(result.resultType).toBe('input_required');
  return result.requestState as string;
}

const accept = { confirm: { action: 'accept', content: { ok: true } } };

describe('input-required: missing client capabilities', () => {
  test('asking for elicitation without the capability is -32021 with requiredCapabilities as an object', async () => {
    const error = await expectRpcError(await modernPost(app, confirmDelete('cap-1', 'a', {}, meta())), {
      status: 400,
      code: -32021,
      id: 'cap-1',
      message: 'Missing required client capability: elicitation',
    });
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
  });

  test('every missing capability is named; declared ones are not', async () => {
    const call = (capabilities: Record<string, unknown>, id: number) =>
      modernPost(app, modern('tools/call', { name: 'summarize', arguments: {} }, id, meta({ capabilities })));
    const none = await expectRpcError(await call({}, 100), {
      status: 400,
      code: -32021,
      id: 100,
      message: 'sampling',
    });
    expect(none.data).toEqual({ requiredCapabilities: { sampling: {}, roots: {} } });
    const some = await expectRpcError(await call({ sampling: {} }, 101), {
      status: 400,
      code: -32021,
      id: 101,
      message: 'roots',
    });
    expect(some.data).toEqual({ requiredCapabilities: { roots: {} } });
    const all = await expectRpcResult(await call({ sampling: {}, roots: {} }, 102), 102);
    expect(all.resultType).toBe('input_required');
  });

  test('a capability declared as something other than an object does not count', async () => {
    const res = await modernPost(
      app,
      confirmDelete(103, 'a', {}, meta({ capabilities: { elicitation: true } })),
    );
    const error = await expectRpcError(res, { status: 400, code: -32021, id: 103, message: 'elicitation' });
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
  });
});

describe('input-required: the round trip', () => {
  test('the interim result has resultType input_required, the requests, an opaque state and no cache hints', async () => {
    const result = await expectRpcResult(await modernPost(app, confirmDelete('ir-1', 'secret-item')), 'ir-1');
    expect(result.resultType).toBe('input_required');
    expect(result.inputRequests).toEqual({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Delete secret-item?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
      },
    });
    const state = result.requestState as string;
    expect(typeof state).toBe('string');
    expect(state.length).toBeLessThanOrEqual(8192);
    expect(state).not.toContain('secret-item');
    expect(atobSafe(state)).not.toContain('round');
    expect('ttlMs' in result).toBe(false);
    expect('cacheScope' in result).toBe(false);
    expect(result._meta).toEqual({ [MCP_META_KEYS.serverInfo]: SERVER_INFO });
    expect('content' in result).toBe(false);
  });

  test('two rounds then a result: each retry has a new id, the handler sees the responses and the verified state', async () => {
    const before = fx.seen.length;
    const state1 = await firstRound('report.pdf');
    const round2 = await expectRpcResult(
      await modernPost(
        app,
        confirmDelete('retry-1', 'report.pdf', { inputResponses: accept, requestState: state1 }),
      ),
      'retry-1',
    );
    expect(round2.resultType).toBe('input_required');
    expect(Object.keys(round2.inputRequests as object)).toEqual(['reason']);
    const state2 = round2.requestState as string;
    expect(state2).not.toBe(state1);
    const reason = { reason: { action: 'accept', content: { cleanup: true } } };
    const done = await expectRpcResult(
      await modernPost(app, confirmDelete(7, 'report.pdf', { inputResponses: reason, requestState: state2 })),
      7,
    );
    expect(done.resultType).toBe('complete');
    expect(firstText(done)).toBe('Deleted report.pdf');
    expect(done.structuredContent).toEqual({
      state: { round: 2, item: 'report.pdf', confirmed: accept.confirm },
      responses: reason,
    });
    expect('ttlMs' in done).toBe(false);
    const calls = fx.seen.slice(before).filter((call) => call.tool === 'confirm_delete');
    expect(calls.map((call) => [call.ctx.id, call.ctx.requestState, call.ctx.inputResponses])).toEqual([
      ['first', undefined, undefined],
      ['retry-1', { round: 1, item: 'report.pdf' }, accept],
      [7, { round: 2, item: 'report.pdf', confirmed: accept.confirm }, reason],
    ]);
  });

  test('inputResponses without a state reach the handler; a non-object inputResponses is -32602', async () => {
    const ok = await expectRpcResult(
      await modernPost(
        app,
        modern('tools/call', { name: 'summarize', arguments: {}, inputResponses: { sample: {} } }, 110),
      ),
      110,
    );
    expect(firstText(ok)).toBe('Summarized');
    for (const inputResponses of [[], 'yes', 1]) {
      const res = await modernPost(
        app,
        modern('tools/call', { name: 'summarize', arguments: {}, inputResponses }, 111),
      );
      await expectRpcError(res, {
        status: 200,
        code: -32602,
        id: 111,
        message: 'inputResponses must be an object',
      });
    }
  });
});

/** base64url-decodes the part after `v1.` as Latin-1 text, to show the token carries no plaintext. */
function atobSafe(state: string): string {
  const body = state.slice(3).replaceAll('-', '+').replaceAll('_', '/');
  return atob(body + '='.repeat((4 - (body.length % 4)) % 4));
}

describe('input-required: forged, altered, re-bound, replayed and expired states are refused', () => {
  const retry = (
    id: string | number,
    item: string,
    requestState: unknown,
    headers: Record<string, string> = {},
  ) => modernPost(app, confirmDelete(id, item, { inputResponses: accept, requestState }), headers);

  const refused = (id: string | number, message: string) => ({
    status: 200,
    code: -32602,
    id,
    message: `Invalid requestState: requestState ${message}`,
  });

  test('a random string is refused before the handler runs', async () => {
    const before = fx.seen.length;
    await expectRpcError(await retry('f1', 'a', 'hello'), refused('f1', 'is malformed'));
    const random = `v1.${encodeBase64Url(crypto.getRandomValues(new Uint8Array(64)))}`;
    await expectRpcError(await retry('f2', 'a', random), refused('f2', FORGED));
    expect(fx.seen.length).toBe(before);
  });

  test('a state that is not a string is malformed', async () => {
    for (const value of [42, { round: 1 }, null, ['v1.x']]) {
      await expectRpcError(await retry('f3', 'a', value), refused('f3', 'is malformed'));
    }
  });

  test('one flipped character is refused, and the genuine state still works afterwards', async () => {
    const state = await firstRound('a');
    const at = Math.floor(state.length / 2);
    const flipped = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    await expectRpcError(await retry('f4', 'a', flipped), refused('f4', FORGED));
    const ok = await expectRpcResult(await retry('f5', 'a', state), 'f5');
    expect(ok.resultType).toBe('input_required');
  });

  test('a state used once is refused the second time', async () => {
    const state = await firstRound('a');
    await expectRpcResult(await retry('r1', 'a', state), 'r1');
    await expectRpcError(await retry('r2', 'a', state), refused('r2', 'was already used'));
  });

  test('a state from one call is refused with other arguments, another tool or another method', async () => {
    const state = await firstRound('a');
    await expectRpcError(await retry('b1', 'b', state), refused('b1', FORGED));
    const otherTool = modern(
      'tools/call',
      { name: 'summarize', arguments: {}, requestState: state },
      'b2',
      ELICIT,
    );
    await expectRpcError(await modernPost(app, otherTool), refused('b2', FORGED));
    const otherMethod = modern(
      'prompts/get',
      { name: 'greet', arguments: { name: 'a' }, requestState: state },
      'b3',
    );
    await expectRpcError(await modernPost(app, otherMethod), refused('b3', FORGED));
    const resource = modern('resources/read', { uri: 'docs://readme', requestState: state }, 'b4');
    await expectRpcError(await modernPost(app, resource), refused('b4', FORGED));
    // None of these consumed it: the state still opens for its own call.
    await expectRpcResult(await retry('b5', 'a', state), 'b5');
  });

  test('a state issued to one Authorization header is refused with another or with none', async () => {
    const state = await firstRound('a', { authorization: 'Bearer alice' });
    await expectRpcError(
      await retry('u1', 'a', state, { authorization: 'Bearer bob' }),
      refused('u1', FORGED),
    );
    await expectRpcError(await retry('u2', 'a', state), refused('u2', FORGED));
    await expectRpcResult(await retry('u3', 'a', state, { authorization: 'Bearer alice' }), 'u3');
  });

  test('a state from another handler (another key) is refused', async () => {
    const other = createFixture();
    const state = await firstRound('a', {}, other);
    await expectRpcError(await retry('k1', 'a', state), refused('k1', FORGED));
  });

  test('an expired state is refused', async () => {
    const quick = createFixture({ handler: { requestStateTtlMs: 30 } });
    const state = await firstRound('a', {}, quick);
    await Bun.sleep(60);
    const res = await modernPost(
      quick.app,
      confirmDelete('e1', 'a', { inputResponses: accept, requestState: state }),
    );
    await expectRpcError(res, refused('e1', 'has expired'));
  });

  test('a state longer than 8192 characters is refused as too long', async () => {
    await expectRpcError(await retry('l1', 'a', `v1.${'A'.repeat(8190)}`), refused('l1', 'is too long'));
  });
});

describe('a modern request whose _meta claims a version but the header names none', () => {
  test('is modern (the _meta decides) and fails the header check with -32020', async () => {
    const body = modern('tools/list', {}, 'claim');
    await expectRpcError(await modernPost(app, body, { 'mcp-protocol-version': null, 'mcp-method': null }), {
      status: 400,
      code: -32020,
      id: 'claim',
      message: 'MCP-Protocol-Version header is missing',
    });
  });
});

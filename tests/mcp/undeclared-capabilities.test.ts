/**
 * Undeclared capabilities (issue 19; conformance suite 0.2.0-alpha.12,
 * server-stateless/sep-2575-server-declares-prompts-in-discover). Under 2026-07-28 there is no
 * handshake, so what `server/discover` declares and what the server answers must agree: the methods
 * of a capability the server does not declare answer 404 -32601. Legacy revisions keep answering
 * the lists (empty for a tools-only server), as they always have: 2025-11-25 leaves it to the client
 * to call only what was negotiated.
 */
import { describe, expect, test } from 'bun:test';
import { createMcpHandler, MCP_META_KEYS } from '@charter/mcp';
import { expectRpcError, expectRpcResult, legacyPost, modern, modernPost, rpc } from './support.ts';

const serverInfo = Object.freeze({ name: 'tools-only', version: '1.0.0' });

const toolsOnly = createMcpHandler({
  serverInfo,
  tools: [{ name: 'now', description: 'The time', inputSchema: { type: 'object' }, handler: () => '12:00' }],
});

const promptsOnly = createMcpHandler({
  serverInfo,
  prompts: [{ name: 'hello', get: () => ({ messages: [] }) }],
});

const UNDECLARED_FOR_TOOLS_ONLY = [
  { method: 'prompts/list', params: {}, capability: 'prompts' },
  { method: 'prompts/get', params: { name: 'hello' }, capability: 'prompts' },
  { method: 'resources/list', params: {}, capability: 'resources' },
  { method: 'resources/templates/list', params: {}, capability: 'resources' },
  { method: 'resources/read', params: { uri: 'docs://readme' }, capability: 'resources' },
] as const;

describe('a tools-only server under 2026-07-28', () => {
  test('server/discover declares tools and nothing it does not serve', async () => {
    const result = await expectRpcResult(
      await modernPost(toolsOnly, modern('server/discover', {}, 'd')),
      'd',
    );
    expect(result.capabilities).toEqual({ tools: {} });
  });

  for (const { method, params, capability } of UNDECLARED_FOR_TOOLS_ONLY) {
    test(`${method} answers 404 -32601 naming the undeclared ${capability} capability`, async () => {
      const res = await modernPost(toolsOnly, modern(method, params, 'u'));
      const error = await expectRpcError(res, {
        status: 404,
        code: -32601,
        id: 'u',
        message: `Method not found: "${method}": this server does not declare the ${capability} capability`,
      });
      expect(error.data).toBeUndefined();
    });
  }

  test('tools/list and tools/call, which it declares, still answer', async () => {
    const list = await expectRpcResult(await modernPost(toolsOnly, modern('tools/list', {}, 't')), 't');
    expect((list.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['now']);
    const call = await expectRpcResult(
      await modernPost(toolsOnly, modern('tools/call', { name: 'now', arguments: {} }, 'c')),
      'c',
    );
    expect(call.content).toEqual([{ type: 'text', text: '12:00' }]);
    expect(call._meta).toEqual({ [MCP_META_KEYS.serverInfo]: serverInfo });
  });
});

describe('a prompts-only server under 2026-07-28', () => {
  test('tools/list and tools/call answer 404 -32601; prompts/list answers', async () => {
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/call', { name: 'now', arguments: {} }],
    ] as const) {
      await expectRpcError(await modernPost(promptsOnly, modern(method, params, 'x')), {
        status: 404,
        code: -32601,
        id: 'x',
        message: 'this server does not declare the tools capability',
      });
    }
    const list = await expectRpcResult(await modernPost(promptsOnly, modern('prompts/list', {}, 'p')), 'p');
    expect(list.prompts).toEqual([{ name: 'hello' }]);
  });
});

describe('a tools-only server under the legacy revisions keeps its empty lists', () => {
  test('prompts/list, resources/list and resources/templates/list answer empty pages (HTTP 200)', async () => {
    expect(await expectRpcResult(await legacyPost(toolsOnly, rpc('prompts/list', undefined, 1)), 1)).toEqual({
      prompts: [],
    });
    expect(
      await expectRpcResult(await legacyPost(toolsOnly, rpc('resources/list', undefined, 2)), 2),
    ).toEqual({
      resources: [],
    });
    expect(
      await expectRpcResult(await legacyPost(toolsOnly, rpc('resources/templates/list', undefined, 3)), 3),
    ).toEqual({ resourceTemplates: [] });
  });
});

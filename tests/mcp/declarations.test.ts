/**
 * What `createMcpHandler` accepts and refuses when it is built, and what clients then see over HTTP:
 * records are held to the MCP schema of every served revision and nothing more (a prompt or a tool
 * without a `description` is served; a field of the wrong type is refused), extension identifiers need
 * the prefix 2026-07-28 requires, and a resource template that an earlier one shadows is refused.
 */
import { describe, expect, test } from 'bun:test';
import {
  createMcpHandler,
  MCP_META_KEYS,
  type McpHandler,
  type McpHandlerOptions,
  type McpPrompt,
  type McpResourceTemplate,
} from '@charter/mcp';
import { legacyPost, meta, modern, modernPost, rpc } from './support.ts';

const serverInfo = Object.freeze({ name: 'declarations', version: '1.0.0' });
const identity = { _meta: { [MCP_META_KEYS.serverInfo]: serverInfo } };

function refusal(options: Record<string, unknown>): string {
  try {
    createMcpHandler({ serverInfo, ...options } as unknown as McpHandlerOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('createMcpHandler accepted the options');
}

/** Asserts a 200 JSON-RPC answer with the handler's headers and returns its body. */
async function answer(res: Response): Promise<Record<string, unknown>> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return (await res.json()) as Record<string, unknown>;
}

const modernCache = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };

describe('a prompt or a tool without a description is accepted and served (MCP makes it optional)', () => {
  const prompts: McpPrompt[] = [
    {
      name: 'haiku',
      arguments: [{ name: 'topic', required: true }],
      get: ({ topic }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
      }),
    },
    { name: 'described', description: 'Has one', get: () => ({ messages: [] }) },
  ];
  const handler = createMcpHandler({
    serverInfo,
    prompts,
    tools: [{ name: 'now', inputSchema: { type: 'object' }, handler: () => '12:00' }],
  });

  test('prompts/list (legacy) lists it without a description', async () => {
    const body = await answer(await legacyPost(handler, rpc('prompts/list', undefined, 'pl')));
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 'pl',
      result: {
        prompts: [
          { name: 'haiku', arguments: [{ name: 'topic', required: true }] },
          { name: 'described', description: 'Has one' },
        ],
      },
    });
  });

  test('prompts/list (2026-07-28) lists it without a description', async () => {
    const body = await answer(await modernPost(handler, modern('prompts/list', {}, 'pm')));
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 'pm',
      result: {
        ...modernCache,
        prompts: [
          { name: 'haiku', arguments: [{ name: 'topic', required: true }] },
          { name: 'described', description: 'Has one' },
        ],
        ...identity,
      },
    });
  });

  test('prompts/get serves it; tools/list and tools/call serve a tool without a description', async () => {
    const got = await answer(
      await modernPost(handler, modern('prompts/get', { name: 'haiku', arguments: { topic: 'rain' } }, 'pg')),
    );
    expect(got.result).toEqual({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'A haiku about rain' } }],
      ...identity,
    });
    const listed = await answer(await modernPost(handler, modern('tools/list', {}, 'tl')));
    expect(listed.result).toEqual({
      ...modernCache,
      tools: [{ name: 'now', inputSchema: { type: 'object' } }],
      ...identity,
    });
    const called = await answer(await modernPost(handler, modern('tools/call', { name: 'now' }, 'tc')));
    expect(called.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '12:00' }],
      ...identity,
    });
  });

  test('what the schema refuses is refused at construction, naming the record and the field', () => {
    const get = () => ({ messages: [] });
    expect(refusal({ prompts: [{ name: 'p', description: 7, get }] })).toBe(
      'createMcpHandler: prompt "p": description is a number; MCP wants a string',
    );
    expect(refusal({ prompts: [{ description: 'no name', get }] })).toBe(
      'createMcpHandler: prompts[0] needs a string name (MCP requires it)',
    );
    expect(refusal({ prompts: [{ name: 'p', get, arguments: [{ name: 'a', required: 'yes' }] }] })).toBe(
      'createMcpHandler: prompt "p": arguments[0].required is a string; MCP wants a boolean',
    );
    expect(
      refusal({
        tools: [{ name: 't', description: ['x'], inputSchema: { type: 'object' }, handler: () => '' }],
      }),
    ).toBe('createMcpHandler: tool "t": description is an array; MCP wants a string');
    expect(refusal({ resources: [{ uri: 'docs://a', name: 'a', size: '1 KiB', read: () => '' }] })).toBe(
      'createMcpHandler: resource "docs://a": size is a string; MCP wants an integer',
    );
  });
});

describe('extensions: identifiers with the prefix 2026-07-28 requires', () => {
  test('io.modelcontextprotocol/tasks is accepted and advertised by server/discover (not by initialize)', async () => {
    const extensions = { 'io.modelcontextprotocol/tasks': {}, 'com.example/audit': { level: 2 } };
    const handler = createMcpHandler({ serverInfo, extensions });
    const discovered = await answer(await modernPost(handler, modern('server/discover', {}, 'd')));
    expect(discovered).toEqual({
      jsonrpc: '2.0',
      id: 'd',
      result: {
        ...modernCache,
        supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
        capabilities: { extensions },
        ...identity,
      },
    });
    const initialized = await answer(
      await legacyPost(
        handler,
        rpc(
          'initialize',
          { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
          'i',
        ),
      ),
    );
    expect(initialized.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { logging: {} },
      serverInfo,
    });
  });

  test('an identifier without a prefix (tasks) is refused at construction, naming the rule', () => {
    expect(refusal({ extensions: { tasks: {} } })).toBe(
      'createMcpHandler: option "extensions" has the identifier "tasks", which has no prefix (labels separated by ' +
        'dots, then "/"); MCP 2026-07-28 extension identifiers follow the _meta key naming rules with a mandatory ' +
        'prefix, e.g. "io.modelcontextprotocol/tasks" or "com.example/audit"',
    );
    expect(
      refusal({ extensions: { 'io.modelcontextprotocol/tasks': {}, 'example.com:tasks': {} } }),
    ).toStartWith(
      'createMcpHandler: option "extensions" has the identifier "example.com:tasks", which has no prefix',
    );
  });
});

describe('resource templates: a second one with the same uriTemplate is refused', () => {
  const read =
    (label: string): McpResourceTemplate['read'] =>
    (uri) => [{ uri, mimeType: 'text/plain', text: label }];

  test('the duplicate is refused at construction, naming it', () => {
    const templates: McpResourceTemplate[] = [
      { uriTemplate: 'docs://pages/{slug}', name: 'page', read: read('first') },
      { uriTemplate: 'docs://pages/{slug}', name: 'page, again', read: read('second') },
    ];
    expect(refusal({ resourceTemplates: templates })).toBe(
      'createMcpHandler: resource template "docs://pages/{slug}" is declared twice',
    );
  });

  test('so is one that differs only in its variable names: it would match the same URIs and never be read', () => {
    const templates: McpResourceTemplate[] = [
      { uriTemplate: 'docs://pages/{slug}', name: 'page', read: read('first') },
      { uriTemplate: 'docs://pages/{id}', name: 'page by id', read: read('second') },
    ];
    expect(refusal({ resourceTemplates: templates })).toBe(
      'createMcpHandler: resource template "docs://pages/{id}" matches exactly the URIs of resource template ' +
        '"docs://pages/{slug}", declared before it, so it could never be read',
    );
  });

  test('distinct templates are each listed and each serve their own reads', async () => {
    const handler: McpHandler = createMcpHandler({
      serverInfo,
      resourceTemplates: [
        { uriTemplate: 'docs://pages/{slug}', name: 'page', read: read('page') },
        { uriTemplate: 'docs://pages/{slug}/raw', name: 'raw page', read: read('raw') },
      ],
    });
    const listed = await answer(await modernPost(handler, modern('resources/templates/list', {}, 'tl')));
    expect(listed.result).toEqual({
      ...modernCache,
      resourceTemplates: [
        { uriTemplate: 'docs://pages/{slug}', name: 'page' },
        { uriTemplate: 'docs://pages/{slug}/raw', name: 'raw page' },
      ],
      ...identity,
    });
    for (const [uri, text] of [
      ['docs://pages/intro', 'page'],
      ['docs://pages/intro/raw', 'raw'],
    ] as const) {
      const body = await answer(await modernPost(handler, modern('resources/read', { uri }, 'r', meta())));
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: 'r',
        result: { ...modernCache, contents: [{ uri, mimeType: 'text/plain', text }], ...identity },
      });
    }
  });
});

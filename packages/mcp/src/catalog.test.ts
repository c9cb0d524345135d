import { describe, expect, test } from 'bun:test';
import { typebox } from '@charter/core';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type } from 'arktype';
import * as z from 'zod';
import { buildCatalog, serverCapabilities } from './catalog.ts';
import { type McpHandlerOptions, resolveMcpOptions } from './options.ts';

const serverInfo = { name: 'notes', version: '1.0.0' };
const handler = () => 'ok';
const read = () => 'text';
const get = () => ({ messages: [] });
const complete = () => ['a'];

const optionsOf = (options: Record<string, unknown>) =>
  resolveMcpOptions({ serverInfo, ...options } as unknown as McpHandlerOptions);
const catalogOf = (options: Record<string, unknown>) => buildCatalog(optionsOf(options));

const tool = (fields: Record<string, unknown> = {}) => ({
  name: 'search',
  description: 'Search the notes',
  inputSchema: { type: 'object' },
  handler,
  ...fields,
});

function refusal(options: Record<string, unknown>): string {
  try {
    catalogOf(options);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('the catalog was accepted');
}

describe('buildCatalog tools', () => {
  test('accepts names of 1 to 128 characters of A-Z a-z 0-9 _ - .', () => {
    for (const name of ['a', 'A'.repeat(128), 'get_user-v2.beta', '0']) {
      expect([...catalogOf({ tools: [tool({ name })] }).tools.keys()]).toEqual([name]);
    }
  });

  test('refuses a name of 129 characters, an empty one, other characters or a non-string', () => {
    for (const name of ['a'.repeat(129), '', 'a b', 'a/b', 'ns:tool', 'café', 'tool\n', 5, undefined]) {
      expect(refusal({ tools: [tool({ name })] })).toBe(
        `createMcpHandler: tools[0] has the name ${JSON.stringify(name)}; names are 1-128 characters of A-Z a-z 0-9 _ - .`,
      );
    }
  });

  test('refuses a tool that is not an object, naming its index', () => {
    expect(refusal({ tools: [tool(), null] })).toBe('createMcpHandler: tools[1] must be a tool object');
  });

  test('refuses a duplicate name', () => {
    expect(refusal({ tools: [tool(), tool({ description: 'again' })] })).toBe(
      'createMcpHandler: tool "search" is declared twice',
    );
  });

  test('requires a non-empty description and a handler; a title, when given, must be a non-empty string', () => {
    for (const description of [undefined, '', 5]) {
      expect(refusal({ tools: [tool({ description })] })).toBe(
        'createMcpHandler: tool "search" needs a non-empty string description',
      );
    }
    for (const fn of [undefined, 'handler', {}]) {
      expect(refusal({ tools: [tool({ handler: fn })] })).toBe(
        'createMcpHandler: tool "search" needs a handler function',
      );
    }
    expect(refusal({ tools: [tool({ title: '' })] })).toBe(
      'createMcpHandler: tool "search" needs a non-empty string title',
    );
    expect(catalogOf({ tools: [tool({ title: 'Search' })] }).toolEntries[0]?.title).toBe('Search');
  });

  test('requires an inputSchema, saying what to write for no arguments', () => {
    expect(refusal({ tools: [tool({ inputSchema: undefined })] })).toBe(
      'createMcpHandler: tool "search" needs an inputSchema (for no arguments: { type: "object" })',
    );
  });

  test('takes a JSON Schema object as it is, without a Standard Schema', () => {
    const inputSchema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const compiled = catalogOf({ tools: [tool({ inputSchema })] }).tools.get('search');
    expect(compiled?.inputSchema).toEqual(inputSchema);
    expect(compiled?.entry.inputSchema).toEqual(inputSchema);
    expect(compiled?.inputStandard).toBeUndefined();
  });

  test('derives the JSON Schema of an arktype schema and keeps the schema to validate with', () => {
    const Args = type({ q: 'string', 'limit?': 'number.integer' });
    const compiled = catalogOf({ tools: [tool({ inputSchema: Args })] }).tools.get('search');
    expect(compiled?.inputSchema).toMatchObject({
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer' } },
      required: ['q'],
    });
    expect(compiled?.inputStandard).toBe(Args as never);
  });

  test('derives the JSON Schema of a zod schema', () => {
    const compiled = catalogOf({
      tools: [tool({ inputSchema: z.object({ q: z.string().min(1) }) })],
    }).tools.get('search');
    expect(compiled?.inputSchema).toMatchObject({
      type: 'object',
      properties: { q: { type: 'string', minLength: 1 } },
      required: ['q'],
    });
  });

  test('derives the JSON Schema of a TypeBox schema wrapped with typebox()', () => {
    const Args = typebox(TypeCompiler.Compile(Type.Object({ n: Type.Integer({ minimum: 1 }) })));
    const compiled = catalogOf({ tools: [tool({ inputSchema: Args })] }).tools.get('search');
    expect(compiled?.inputSchema).toMatchObject({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 } },
      required: ['n'],
    });
    expect(compiled?.inputStandard).toBe(Args as never);
  });

  test('refuses an input schema whose root is not an object (MCP tools take an arguments object)', () => {
    for (const inputSchema of [
      { type: 'array' },
      {},
      { type: ['object', 'null'] },
      type('string[]'),
      z.string(),
    ]) {
      expect(refusal({ tools: [tool({ inputSchema })] })).toEndWith(
        'tool "search": inputSchema must have "type": "object" at its root, as MCP requires',
      );
    }
    expect(refusal({ tools: [tool({ inputSchema: 'object' })] })).toEndWith(
      'tool "search": inputSchema must be a JSON Schema object, got string',
    );
  });

  test('refuses an arktype Date with a message that names the tool and says why', () => {
    const message = refusal({ tools: [tool({ inputSchema: type({ when: 'Date' }) })] });
    expect(message).toStartWith(
      'createMcpHandler: tool "search": inputSchema cannot be described as JSON Schema: ',
    );
    expect(message.toLowerCase()).toContain('date');
  });

  test('compiles an outputSchema from a Standard Schema or JSON, and refuses a non-object root', () => {
    const compiled = catalogOf({ tools: [tool({ outputSchema: type({ total: 'number' }) })] }).tools.get(
      'search',
    );
    expect(compiled?.outputSchema).toMatchObject({
      type: 'object',
      properties: { total: { type: 'number' } },
    });
    expect(compiled?.entry.outputSchema).toEqual(compiled?.outputSchema as never);
    expect(compiled?.outputStandard).toBeDefined();
    const plain = catalogOf({ tools: [tool({ outputSchema: { type: 'object' } })] }).tools.get('search');
    expect(plain?.outputSchema).toEqual({ type: 'object' });
    expect(plain?.outputStandard).toBeUndefined();
    const none = catalogOf({ tools: [tool()] }).tools.get('search');
    expect(none?.outputSchema).toBeUndefined();
    expect(Object.hasOwn(none?.entry ?? {}, 'outputSchema')).toBe(false);
    expect(refusal({ tools: [tool({ outputSchema: { type: 'array' } })] })).toEndWith(
      'tool "search": outputSchema must have "type": "object" at its root, as MCP requires',
    );
  });

  test('collects x-mcp-header parameters of the input schema', () => {
    const inputSchema = {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, q: { type: 'string' } },
    };
    const compiled = catalogOf({ tools: [tool({ inputSchema })] }).tools.get('search');
    expect(compiled?.headerParams).toEqual([
      { header: 'Region', lower: 'region', path: ['region'], type: 'string' },
    ]);
  });

  test('list entries keep declared fields in order, drop functions and undefined, and are frozen', () => {
    const annotations = { readOnlyHint: true };
    const icons = [{ src: 'https://n.example/i.png' }];
    const tools = [
      tool({ name: 'b', title: 'B', annotations, icons, _meta: { k: 1 }, extra: () => 1, hidden: undefined }),
      tool({ name: 'a' }),
    ];
    const catalog = catalogOf({ tools });
    expect(catalog.toolEntries.map((entry) => entry.name)).toEqual(['b', 'a']);
    expect(catalog.toolEntries[0]).toEqual({
      name: 'b',
      description: 'Search the notes',
      title: 'B',
      annotations,
      icons,
      _meta: { k: 1 },
      inputSchema: { type: 'object' },
    });
    expect(Object.isFrozen(catalog.toolEntries)).toBe(true);
    expect(Object.isFrozen(catalog.toolEntries[0])).toBe(true);
  });
});

describe('buildCatalog resources and templates', () => {
  test('accepts absolute URIs of any scheme and lists them in order without read', () => {
    const resources = [
      { uri: 'docs://guide', name: 'guide', mimeType: 'text/markdown', read },
      { uri: 'https://n.example/a', name: 'a', read },
      { uri: 'urn:isbn:0451450523', name: 'book', read },
    ];
    const catalog = catalogOf({ resources });
    expect([...catalog.resources.keys()]).toEqual([
      'docs://guide',
      'https://n.example/a',
      'urn:isbn:0451450523',
    ]);
    expect(catalog.resourceEntries[0]).toEqual({
      uri: 'docs://guide',
      name: 'guide',
      mimeType: 'text/markdown',
    });
  });

  test('refuses a relative or empty uri, a duplicate, a missing name or read, a non-object', () => {
    for (const uri of ['/guide', 'guide', 'not a uri']) {
      expect(refusal({ resources: [{ uri, name: 'g', read }] })).toBe(
        `createMcpHandler: resources[0] has the uri ${JSON.stringify(uri)}, which is not an absolute URI`,
      );
    }
    expect(refusal({ resources: [{ uri: '', name: 'g', read }] })).toBe(
      'createMcpHandler: resources[0] needs a non-empty string uri',
    );
    const guide = { uri: 'docs://guide', name: 'g', read };
    expect(refusal({ resources: [guide, guide] })).toBe(
      'createMcpHandler: resource "docs://guide" is declared twice',
    );
    expect(refusal({ resources: [{ uri: 'docs://guide', read }] })).toBe(
      'createMcpHandler: resource "docs://guide" needs a non-empty string name',
    );
    expect(refusal({ resources: [{ uri: 'docs://guide', name: 'g' }] })).toBe(
      'createMcpHandler: resource "docs://guide" needs a read function',
    );
    expect(refusal({ resources: [7] })).toBe('createMcpHandler: resources[0] must be a resource object');
  });

  test('compiles templates and lists them without read and complete', () => {
    const templates = [
      { uriTemplate: 'notes://{id}', name: 'note', mimeType: 'text/plain', read, complete: { id: complete } },
    ];
    const catalog = catalogOf({ resourceTemplates: templates });
    expect(catalog.templates[0]?.compiled.variables).toEqual(['id']);
    expect(catalog.templates[0]?.compiled.match('notes://7')).toEqual({ id: '7' });
    expect(catalog.templateEntries).toEqual([
      { uriTemplate: 'notes://{id}', name: 'note', mimeType: 'text/plain' },
    ]);
  });

  test('refuses a bad template, naming the template', () => {
    expect(refusal({ resourceTemplates: [{ uriTemplate: 'notes://{+id}', name: 'n', read }] })).toBe(
      'createMcpHandler: resource template "notes://{+id}": uriTemplate "notes://{+id}" has the expression {+id}; only ' +
        'simple {name} expressions (RFC 6570 level 1, letters, digits and _) are supported',
    );
    expect(refusal({ resourceTemplates: [{ uriTemplate: 'notes://{id}', read }] })).toBe(
      'createMcpHandler: resource template "notes://{id}" needs a non-empty string name',
    );
    expect(refusal({ resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'n' }] })).toBe(
      'createMcpHandler: resource template "notes://{id}" needs a read function',
    );
    expect(refusal({ resourceTemplates: [null] })).toBe(
      'createMcpHandler: resourceTemplates[0] must be a resource template object',
    );
  });

  test('refuses a completer for a variable the template does not have, or one that is not a function', () => {
    expect(
      refusal({
        resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'n', read, complete: { tag: complete } }],
      }),
    ).toBe(
      'createMcpHandler: resource template "notes://{id}" completes "tag", which is not one of its variables',
    );
    expect(
      refusal({
        resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'n', read, complete: { id: 'x' } }],
      }),
    ).toBe(
      'createMcpHandler: resource template "notes://{id}" completion of "id" needs a completer function',
    );
  });
});

describe('buildCatalog prompts', () => {
  const prompt = (fields: Record<string, unknown> = {}) => ({
    name: 'summary',
    description: 'Summarise',
    get,
    ...fields,
  });

  test('lists prompts in order with arguments stripped of their completers', () => {
    const catalog = catalogOf({
      prompts: [
        prompt({
          arguments: [
            { name: 'topic', required: true, complete },
            { name: 'tone', description: 'd' },
          ],
        }),
        prompt({ name: 'plain' }),
      ],
    });
    expect(catalog.promptEntries).toEqual([
      {
        name: 'summary',
        description: 'Summarise',
        arguments: [
          { name: 'topic', required: true },
          { name: 'tone', description: 'd' },
        ],
      },
      { name: 'plain', description: 'Summarise' },
    ]);
  });

  test('refuses a duplicate argument, a nameless argument and a non-function completer', () => {
    expect(refusal({ prompts: [prompt({ arguments: [{ name: 'x' }, { name: 'x' }] })] })).toBe(
      'createMcpHandler: prompt "summary" declares the argument "x" twice',
    );
    expect(refusal({ prompts: [prompt({ arguments: [{}] })] })).toBe(
      'createMcpHandler: prompt "summary" needs a non-empty string argument name',
    );
    expect(refusal({ prompts: [prompt({ arguments: [{ name: 'x', complete: 'y' }] })] })).toBe(
      'createMcpHandler: prompt "summary" argument x needs a complete function',
    );
  });

  test('refuses a duplicate prompt, a missing name, description or get', () => {
    expect(refusal({ prompts: [prompt(), prompt()] })).toBe(
      'createMcpHandler: prompt "summary" is declared twice',
    );
    expect(refusal({ prompts: [prompt({ name: '' })] })).toBe(
      'createMcpHandler: prompts[0] needs a non-empty string name',
    );
    expect(refusal({ prompts: [prompt({ description: undefined })] })).toBe(
      'createMcpHandler: prompt "summary" needs a non-empty string description',
    );
    expect(refusal({ prompts: [prompt({ get: undefined })] })).toBe(
      'createMcpHandler: prompt "summary" needs a get function',
    );
    expect(refusal({ prompts: ['summary'] })).toBe('createMcpHandler: prompts[0] must be a prompt object');
  });
});

describe('serverCapabilities', () => {
  const capabilities = (options: Record<string, unknown>, era: 'modern' | 'legacy') => {
    const resolved = optionsOf(options);
    return serverCapabilities(buildCatalog(resolved), resolved, era);
  };

  test('an empty server declares only logging, and only in the legacy era', () => {
    expect(capabilities({}, 'legacy')).toEqual({ logging: {} });
    expect(capabilities({}, 'modern')).toEqual({});
  });

  test('declares tools, resources (fixed or templated) and prompts when it has them', () => {
    const everything = {
      tools: [tool()],
      resources: [{ uri: 'docs://a', name: 'a', read }],
      prompts: [{ name: 'p', description: 'd', get }],
    };
    expect(capabilities(everything, 'modern')).toEqual({ tools: {}, resources: {}, prompts: {} });
    expect(capabilities(everything, 'legacy')).toEqual({
      tools: {},
      resources: {},
      prompts: {},
      logging: {},
    });
    expect(
      capabilities({ resourceTemplates: [{ uriTemplate: 'n://{id}', name: 'n', read }] }, 'modern'),
    ).toEqual({
      resources: {},
    });
  });

  test('declares completions only when a prompt argument or a template variable has a completer', () => {
    const withoutCompleter = { prompts: [{ name: 'p', description: 'd', get, arguments: [{ name: 'x' }] }] };
    expect(capabilities(withoutCompleter, 'modern')).toEqual({ prompts: {} });
    const promptCompleter = {
      prompts: [{ name: 'p', description: 'd', get, arguments: [{ name: 'x', complete }] }],
    };
    expect(capabilities(promptCompleter, 'modern')).toEqual({ prompts: {}, completions: {} });
    const templateCompleter = {
      resourceTemplates: [{ uriTemplate: 'n://{id}', name: 'n', read, complete: { id: complete } }],
    };
    expect(capabilities(templateCompleter, 'legacy')).toEqual({
      resources: {},
      completions: {},
      logging: {},
    });
    expect(catalogOf(templateCompleter).completions).toBe(true);
    expect(catalogOf(withoutCompleter).completions).toBe(false);
  });

  test('declares extensions only in the modern era', () => {
    const extensions = { 'io.example/audit': { level: 2 } };
    expect(capabilities({ extensions }, 'modern')).toEqual({ extensions });
    expect(capabilities({ extensions }, 'legacy')).toEqual({ logging: {} });
  });
});

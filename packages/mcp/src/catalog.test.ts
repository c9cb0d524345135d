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

  test('description and title are optional (MCP Tool.description is optional in every revision); a handler is required', () => {
    const bare = catalogOf({ tools: [tool({ description: undefined })] });
    expect(bare.toolEntries[0]).toEqual({ name: 'search', inputSchema: { type: 'object' } });
    // Any string: no revision gives them a minimum length.
    expect(catalogOf({ tools: [tool({ description: '', title: '' })] }).toolEntries[0]).toMatchObject({
      description: '',
      title: '',
    });
    expect(catalogOf({ tools: [tool({ title: 'Search' })] }).toolEntries[0]?.title).toBe('Search');
    for (const fn of [undefined, 'handler', {}]) {
      expect(refusal({ tools: [tool({ handler: fn })] })).toBe(
        'createMcpHandler: tool "search" needs a handler function',
      );
    }
  });

  test('refuses a description or title that is not a string', () => {
    for (const [description, kind] of [
      [5, 'a number'],
      [null, 'null'],
      [['a'], 'an array'],
    ] as const) {
      expect(refusal({ tools: [tool({ description })] })).toBe(
        `createMcpHandler: tool "search": description is ${kind}; MCP wants a string`,
      );
    }
    expect(refusal({ tools: [tool({ title: false })] })).toBe(
      'createMcpHandler: tool "search": title is a boolean; MCP wants a string',
    );
  });

  test('checks annotations (ToolAnnotations: title string, four boolean hints) and execution.taskSupport', () => {
    const annotations = {
      title: 'Search',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    };
    expect(catalogOf({ tools: [tool({ annotations })] }).toolEntries[0]?.annotations).toEqual(annotations);
    expect(refusal({ tools: [tool({ annotations: [] })] })).toBe(
      'createMcpHandler: tool "search": annotations is an array; MCP wants an object',
    );
    expect(refusal({ tools: [tool({ annotations: { readOnlyHint: 'yes' } })] })).toBe(
      'createMcpHandler: tool "search": annotations.readOnlyHint is a string; MCP wants a boolean',
    );
    expect(refusal({ tools: [tool({ annotations: { title: 1 } })] })).toBe(
      'createMcpHandler: tool "search": annotations.title is a number; MCP wants a string',
    );
    expect(
      catalogOf({ tools: [tool({ execution: { taskSupport: 'optional' } })] }).toolEntries[0],
    ).toMatchObject({ execution: { taskSupport: 'optional' } });
    expect(refusal({ tools: [tool({ execution: { taskSupport: 'always' } })] })).toBe(
      'createMcpHandler: tool "search": execution.taskSupport is not "forbidden", "optional" or "required"',
    );
  });

  test('checks icons: an array of { src (absolute URI), mimeType?, sizes?: string[], theme?: light | dark }', () => {
    const icons = [
      { src: 'https://n.example/i.png', mimeType: 'image/png', sizes: ['48x48', 'any'], theme: 'dark' },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+' },
    ];
    expect(catalogOf({ tools: [tool({ icons })] }).toolEntries[0]?.icons).toEqual(icons);
    const cases: [unknown, string][] = [
      [{ src: 'https://n.example/i.png' }, 'icons is an object; MCP wants an array'],
      [
        ['https://n.example/i.png'],
        'icons[0] is a string; MCP wants an Icon object { src, mimeType?, sizes?, theme? }',
      ],
      [[{ mimeType: 'image/png' }], 'needs a string icons[0].src (MCP requires it)'],
      [[{ src: '/i.png' }], 'icons[0].src is not an absolute URI'],
      [
        [{ src: 'https://n.example/i.png', sizes: '48x48' }],
        'icons[0].sizes is a string; MCP wants an array',
      ],
      [
        [{ src: 'https://n.example/i.png', sizes: [48] }],
        'icons[0].sizes[0] is a number; MCP wants a string',
      ],
      [[{ src: 'https://n.example/i.png', theme: 'blue' }], 'icons[0].theme is neither "light" nor "dark"'],
    ];
    for (const [value, message] of cases) {
      const refused = refusal({ tools: [tool({ icons: value })] });
      expect(refused).toStartWith('createMcpHandler: tool "search"');
      expect(refused).toEndWith(message);
    }
  });

  test('checks _meta: an object whose keys keep the MCP key naming rules', () => {
    const _meta = {
      k: 1,
      'trace-id.v2': 2,
      'com.example/audit': 3,
      'io.modelcontextprotocol/related-task': 4,
      'com.example/': 5,
    };
    expect(catalogOf({ tools: [tool({ _meta })] }).toolEntries[0]?._meta).toEqual(_meta);
    expect(refusal({ tools: [tool({ _meta: 'x' })] })).toBe(
      'createMcpHandler: tool "search": _meta is a string; MCP wants an object',
    );
    for (const [key, problem] of [
      ['-k', 'has a name that does not start and end with a letter or digit'],
      ['a b', 'has a name that does not start and end with a letter or digit'],
      ['1com.example/k', 'has the prefix label "1com"'],
      ['com..example/k', 'has the prefix label ""'],
      ['com.example-/k', 'has the prefix label "example-"'],
      ['com.example/k/v', 'has a name (after "/")'],
      ['com.example/k_', 'has a name (after "/")'],
    ] as const) {
      expect(refusal({ tools: [tool({ _meta: { [key]: 1 } })] })).toStartWith(
        `createMcpHandler: tool "search": the _meta key ${JSON.stringify(key)} ${problem}`,
      );
    }
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
    for (const uri of ['/guide', 'guide', 'not a uri', '']) {
      expect(refusal({ resources: [{ uri, name: 'g', read }] })).toBe(
        `createMcpHandler: resources[0] has the uri ${JSON.stringify(uri)}, which is not an absolute URI`,
      );
    }
    for (const uri of [undefined, 7]) {
      expect(refusal({ resources: [{ uri, name: 'g', read }] })).toBe(
        'createMcpHandler: resources[0] needs a string uri (MCP requires it)',
      );
    }
    const guide = { uri: 'docs://guide', name: 'g', read };
    expect(refusal({ resources: [guide, guide] })).toBe(
      'createMcpHandler: resource "docs://guide" is declared twice',
    );
    for (const name of [undefined, 3]) {
      expect(refusal({ resources: [{ uri: 'docs://guide', name, read }] })).toBe(
        'createMcpHandler: resource "docs://guide" needs a string name (MCP requires it)',
      );
    }
    expect(refusal({ resources: [{ uri: 'docs://guide', name: 'g' }] })).toBe(
      'createMcpHandler: resource "docs://guide" needs a read function',
    );
    expect(refusal({ resources: [7] })).toBe('createMcpHandler: resources[0] must be a resource object');
  });

  test('accepts every optional Resource field MCP defines, and any string name', () => {
    const resource = {
      uri: 'docs://guide',
      name: '',
      title: 'Guide',
      description: '',
      mimeType: 'text/markdown',
      size: 1024,
      annotations: { audience: ['user', 'assistant'], priority: 0, lastModified: '2026-07-28T12:00:00Z' },
      icons: [{ src: 'https://n.example/g.svg', theme: 'light' }],
      _meta: { 'com.example/etag': 'abc' },
      read,
    };
    const { read: _read, ...entry } = resource;
    expect(catalogOf({ resources: [resource] }).resourceEntries).toEqual([entry]);
  });

  test('refuses an optional Resource field of the wrong type or out of range', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 1 }, 'title is a number; MCP wants a string'],
      [{ description: {} }, 'description is an object; MCP wants a string'],
      [{ mimeType: true }, 'mimeType is a boolean; MCP wants a string'],
      [{ size: 1.5 }, 'size is a number; MCP wants an integer'],
      [{ size: '12' }, 'size is a string; MCP wants an integer'],
      [{ annotations: 'high' }, 'annotations is a string; MCP wants an object'],
      [{ annotations: { audience: 'user' } }, 'annotations.audience is a string; MCP wants an array'],
      [{ annotations: { audience: ['model'] } }, 'annotations.audience[0] is neither "user" nor "assistant"'],
      [{ annotations: { priority: 1.5 } }, 'annotations.priority is not a number from 0 to 1'],
      [{ annotations: { priority: Number.NaN } }, 'annotations.priority is not a number from 0 to 1'],
      [{ annotations: { lastModified: 0 } }, 'annotations.lastModified is a number; MCP wants a string'],
      [{ icons: [{}] }, 'needs a string icons[0].src (MCP requires it)'],
      [{ _meta: [] }, '_meta is an array; MCP wants an object'],
    ];
    for (const [fields, message] of cases) {
      const refused = refusal({ resources: [{ uri: 'docs://guide', name: 'g', read, ...fields }] });
      expect(refused).toStartWith('createMcpHandler: resource "docs://guide"');
      expect(refused).toEndWith(message);
    }
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
      'createMcpHandler: resource template "notes://{id}" needs a string name (MCP requires it)',
    );
    expect(refusal({ resourceTemplates: [{ name: 'n', read }] })).toBe(
      'createMcpHandler: resourceTemplates[0] needs a string uriTemplate (MCP requires it)',
    );
    expect(refusal({ resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'n' }] })).toBe(
      'createMcpHandler: resource template "notes://{id}" needs a read function',
    );
    expect(refusal({ resourceTemplates: [null] })).toBe(
      'createMcpHandler: resourceTemplates[0] must be a resource template object',
    );
  });

  test('accepts every optional ResourceTemplate field MCP defines, and refuses one of the wrong type', () => {
    const template = {
      uriTemplate: 'notes://{id}',
      name: 'note',
      title: 'Note',
      description: 'One note',
      mimeType: 'text/plain',
      annotations: { audience: ['assistant'], priority: 1 },
      icons: [{ src: 'https://n.example/n.png' }],
      _meta: { 'com.example/kind': 'note' },
      read,
    };
    const { read: _read, ...entry } = template;
    expect(catalogOf({ resourceTemplates: [template] }).templateEntries).toEqual([entry]);
    expect(refusal({ resourceTemplates: [{ ...template, mimeType: 1 }] })).toBe(
      'createMcpHandler: resource template "notes://{id}": mimeType is a number; MCP wants a string',
    );
    expect(refusal({ resourceTemplates: [{ ...template, annotations: { priority: -0.1 } }] })).toBe(
      'createMcpHandler: resource template "notes://{id}": annotations.priority is not a number from 0 to 1',
    );
  });

  test('refuses a second template with the same uriTemplate, naming it (the second would never be read)', () => {
    const first = { uriTemplate: 'docs://pages/{slug}', name: 'page', read };
    const second = { uriTemplate: 'docs://pages/{slug}', name: 'page again', read };
    expect(
      refusal({ resourceTemplates: [first, { uriTemplate: 'docs://tags/{tag}', name: 't', read }, second] }),
    ).toBe('createMcpHandler: resource template "docs://pages/{slug}" is declared twice');
  });

  test('refuses a template that matches exactly the URIs of an earlier one under other variable names', () => {
    const first = { uriTemplate: 'docs://pages/{slug}.md', name: 'page', read };
    const second = { uriTemplate: 'docs://pages/{name}.md', name: 'page by name', read };
    expect(refusal({ resourceTemplates: [first, second] })).toBe(
      'createMcpHandler: resource template "docs://pages/{name}.md" matches exactly the URIs of resource ' +
        'template "docs://pages/{slug}.md", declared before it, so it could never be read',
    );
  });

  test('accepts templates that differ, overlapping ones included (the first that matches serves a read)', () => {
    const templates = [
      { uriTemplate: 'docs://pages/{slug}', name: 'page', read },
      { uriTemplate: 'docs://pages/{slug}.md', name: 'page source', read },
      { uriTemplate: 'docs://pages/{slug}/raw', name: 'raw page', read },
      { uriTemplate: 'docs://{section}/{slug}', name: 'any', read },
    ];
    const catalog = catalogOf({ resourceTemplates: templates });
    expect(catalog.templateEntries.map((entry) => entry.uriTemplate)).toEqual(
      templates.map((template) => template.uriTemplate),
    );
    expect(catalog.templates.map((template) => template.compiled.shape)).toEqual([
      'docs://pages/{}',
      'docs://pages/{}.md',
      'docs://pages/{}/raw',
      'docs://{}/{}',
    ]);
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
    expect(refusal({ prompts: [prompt({ arguments: [{ name: 'x' }, {}] })] })).toBe(
      'createMcpHandler: prompt "summary" needs a string arguments[1].name (MCP requires it)',
    );
    expect(refusal({ prompts: [prompt({ arguments: [{ name: 'x', complete: 'y' }] })] })).toBe(
      'createMcpHandler: prompt "summary" argument x needs a complete function',
    );
  });

  test('checks the PromptArgument fields: title and description strings, required a boolean', () => {
    const argument = { name: 'topic', title: 'Topic', description: '', required: false };
    expect(catalogOf({ prompts: [prompt({ arguments: [argument] })] }).promptEntries[0]?.arguments).toEqual([
      argument,
    ]);
    const cases: [unknown, string][] = [
      [{ name: 'topic', required: 'yes' }, 'arguments[0].required is a string; MCP wants a boolean'],
      [{ name: 'topic', title: 1 }, 'arguments[0].title is a number; MCP wants a string'],
      [{ name: 'topic', description: null }, 'arguments[0].description is null; MCP wants a string'],
      [
        'topic',
        'arguments[0] is a string; MCP wants a PromptArgument object { name, title?, description?, required? }',
      ],
    ];
    for (const [value, message] of cases) {
      expect(refusal({ prompts: [prompt({ arguments: [value] })] })).toBe(
        `createMcpHandler: prompt "summary": ${message}`,
      );
    }
    expect(refusal({ prompts: [prompt({ arguments: { topic: {} } })] })).toBe(
      'createMcpHandler: prompt "summary": arguments is an object; MCP wants an array',
    );
  });

  test('a description is optional (MCP Prompt.description is optional in every revision): listed without one', () => {
    const catalog = catalogOf({
      prompts: [prompt({ description: undefined }), prompt({ name: 'blank', description: '' })],
    });
    expect(catalog.promptEntries).toEqual([{ name: 'summary' }, { name: 'blank', description: '' }]);
    for (const [description, kind] of [
      [5, 'a number'],
      [null, 'null'],
    ] as const) {
      expect(refusal({ prompts: [prompt({ description })] })).toBe(
        `createMcpHandler: prompt "summary": description is ${kind}; MCP wants a string`,
      );
    }
    expect(refusal({ prompts: [prompt({ title: [] })] })).toBe(
      'createMcpHandler: prompt "summary": title is an array; MCP wants a string',
    );
  });

  test('refuses a duplicate prompt, a missing or non-string name, a missing get; any string name is accepted', () => {
    expect(refusal({ prompts: [prompt(), prompt()] })).toBe(
      'createMcpHandler: prompt "summary" is declared twice',
    );
    for (const name of [undefined, 7]) {
      expect(refusal({ prompts: [prompt({ name })] })).toBe(
        'createMcpHandler: prompts[0] needs a string name (MCP requires it)',
      );
    }
    expect(catalogOf({ prompts: [prompt({ name: '' })] }).promptEntries[0]?.name).toBe('');
    expect(refusal({ prompts: [prompt({ get: undefined })] })).toBe(
      'createMcpHandler: prompt "summary" needs a get function',
    );
    expect(refusal({ prompts: ['summary'] })).toBe('createMcpHandler: prompts[0] must be a prompt object');
  });
});

describe('buildCatalog: the required fields of every record, as schema.ts of each served revision has them', () => {
  // Identical in 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28 (schema/<revision>/schema.ts).
  const minimal: Record<string, [string, Record<string, unknown>, readonly string[]]> = {
    Tool: ['tools', { name: 'search', inputSchema: { type: 'object' }, handler }, ['name', 'inputSchema']],
    Resource: ['resources', { uri: 'docs://a', name: 'a', read }, ['uri', 'name']],
    ResourceTemplate: [
      'resourceTemplates',
      { uriTemplate: 'docs://{a}', name: 'a', read },
      ['uriTemplate', 'name'],
    ],
    Prompt: ['prompts', { name: 'p', get }, ['name']],
  };

  for (const [record, [option, fields, required]] of Object.entries(minimal)) {
    test(`${record}: only ${required.join(' and ')} (besides the handler) are required`, () => {
      expect(() => catalogOf({ [option]: [fields] })).not.toThrow();
      for (const field of required) {
        const { [field]: _dropped, ...rest } = fields;
        expect(refusal({ [option]: [rest] })).toContain(field);
      }
    });
  }

  test('PromptArgument: only name is required', () => {
    expect(() => catalogOf({ prompts: [{ name: 'p', get, arguments: [{ name: 'x' }] }] })).not.toThrow();
    expect(refusal({ prompts: [{ name: 'p', get, arguments: [{ description: 'no name' }] }] })).toBe(
      'createMcpHandler: prompt "p" needs a string arguments[0].name (MCP requires it)',
    );
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
    // Modern resources are subscribable on a subscriptions/listen stream (listen.ts); legacy ones
    // only with a sessions store.
    expect(capabilities(everything, 'modern')).toEqual({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
    });
    expect(capabilities(everything, 'legacy')).toEqual({
      tools: {},
      resources: {},
      prompts: {},
      logging: {},
    });
    expect(
      capabilities({ resourceTemplates: [{ uriTemplate: 'n://{id}', name: 'n', read }] }, 'modern'),
    ).toEqual({
      resources: { subscribe: true },
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

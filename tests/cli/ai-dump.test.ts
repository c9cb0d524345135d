/** buildAiDump and schemaToType: the compact Markdown catalogue `charter ai` prints for coding agents. */
import { describe, expect, test } from 'bun:test';
import { buildAiDump, schemaToType } from '@charter/cli';

describe('schemaToType', () => {
  test('writes schemas as short TypeScript-like types', () => {
    expect(schemaToType({ type: 'string' })).toBe('string');
    expect(schemaToType({ type: 'string', format: 'date-time' })).toBe('string(date-time)');
    expect(schemaToType({ type: 'integer', minimum: 1, maximum: 100 })).toBe(
      'integer (minimum 1, maximum 100)',
    );
    expect(schemaToType({ type: ['string', 'null'] })).toBe('string | null');
    expect(schemaToType({ enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(schemaToType({ const: 3 })).toBe('3');
    expect(schemaToType({ $ref: '#/components/schemas/Todo' })).toBe('Todo');
    expect(schemaToType({ type: 'array', items: { $ref: '#/components/schemas/Todo' } })).toBe('Todo[]');
    expect(schemaToType({ type: 'array', items: { type: ['string', 'integer'] } })).toBe(
      '(string | integer)[]',
    );
    expect(
      schemaToType({
        type: 'object',
        properties: { id: { type: 'integer' }, 'x-y': { type: 'string' } },
        required: ['id'],
      }),
    ).toBe('{ id: integer, "x-y"?: string }');
    expect(schemaToType({ type: 'object', additionalProperties: { type: 'number' } })).toBe(
      'Record<string, number>',
    );
    expect(
      schemaToType({ oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] }),
    ).toBe('Cat | Dog');
    expect(
      schemaToType({
        allOf: [{ $ref: '#/a/Base' }],
        type: 'object',
        properties: { n: { type: 'string' } },
        required: ['n'],
      }),
    ).toBe('Base & { n: string }');
    expect(schemaToType({})).toBe('any');
  });

  test('cuts deep and wide objects', () => {
    const deep = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: {
            b: {
              type: 'object',
              properties: { c: { type: 'object', properties: { d: { type: 'string' } } } },
            },
          },
        },
      },
    };
    expect(schemaToType(deep)).toBe('{ a?: { b?: { c?: { ... } } } }');
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`p${i}`, { type: 'string' }])),
    };
    expect(schemaToType(wide)).toEndWith('p19?: string, ... }');
  });
});

describe('buildAiDump', () => {
  const document = {
    openapi: '3.1.1',
    info: { title: 'Shop', version: '2.0.0', description: 'Sells\nthings.' },
    servers: [{ url: 'https://api.example.com' }],
    security: [{ key: [] }],
    paths: {
      '/items/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getItem',
          summary: 'One item',
          security: [],
          parameters: [{ name: 'fields', in: 'query', schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
            404: {
              description: 'none',
              content: { 'application/problem+json': { schema: { type: 'object' } } },
            },
          },
        },
        put: {
          operationId: 'putItem',
          deprecated: true,
          security: [{ oauth: ['items:write'] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
          responses: { 204: { description: 'saved' } },
        },
      },
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          properties: { id: { type: 'integer' }, name: { type: 'string' } },
          required: ['id', 'name'],
        },
      },
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
        oauth: { type: 'oauth2', flows: {} },
      },
    },
  };

  test('lists the API, its auth, each operation and the schemas', () => {
    const text = buildAiDump(document, [{ method: 'GET', path: '/live', note: 'WebSocket upgrade' }]);
    expect(text).toStartWith('# Shop 2.0.0\n\nSells things.\n\n');
    expect(text).toContain('Servers: https://api.example.com\n');
    expect(text).toContain(
      '## Auth\n\n- key: API key in header `X-Key`\n- oauth: OAuth 2.0\n- default for every operation: key\n',
    );
    expect(text).toContain(
      '### GET /items/{id} (getItem)\nOne item\n- auth: none\n- path: id: integer\n- query: fields?: string\n- 200: Item\n- errors (problem+json): 404\n',
    );
    expect(text).toContain(
      '### PUT /items/{id} (putItem) [deprecated]\n- auth: oauth (items:write)\n- path: id: integer\n- body: Item\n- 204: no body\n',
    );
    expect(text).toContain('### GET /live\n- WebSocket upgrade\n');
    expect(text).toContain('## Schemas\n\n- Item: { id: integer, name: string }\n');
  });

  test('text from the document cannot break out of its line or carry terminal escapes', () => {
    const hostile = { openapi: '3.1.0', info: { title: 'A\n# injected\u001b[2J', version: '1' }, paths: {} };
    const text = buildAiDump(hostile);
    expect(text).toStartWith('# A # injected [2J 1\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('No operations.');
  });

  test('an empty or odd document gives a short catalogue, no crash', () => {
    expect(buildAiDump({})).toStartWith('# API\n');
    expect(() => buildAiDump(null)).not.toThrow();
    expect(() =>
      buildAiDump({ paths: { '/a': { get: { responses: 'x', parameters: [null, 1] } } } }),
    ).not.toThrow();
  });
});

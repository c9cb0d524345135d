import { describe, expect, test } from 'bun:test';
import { checkAnswer, documentedResponse, listedMediaType } from './fuzz-check.ts';
import { invalidValues, Random, seedFor, validValue } from './fuzz-values.ts';
import { checkJsonSchema } from './json-schema-check.ts';

const root = {
  components: {
    schemas: { Item: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
  },
};
const responses = {
  '200': {
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
    headers: {
      ETag: { schema: { type: 'string' }, required: true },
      'X-Count': { schema: { type: 'integer' } },
    },
  },
  '204': {},
  '4XX': { content: { 'application/problem+json': { schema: { type: 'object' } } } },
  '500': { content: { 'text/*': { schema: { type: 'string', maxLength: 3 } } } },
};

const answer = (status: number, headers: Record<string, string>, body: string | undefined) => ({
  status,
  headers: new Headers(headers),
  body,
});
const codes = (status: number, headers: Record<string, string>, body: string | undefined) =>
  checkAnswer(responses, answer(status, headers, body), root).map((p) => p.code);

describe('checkAnswer', () => {
  test('a conforming answer has no problem', () => {
    expect(
      codes(
        200,
        { 'content-type': 'application/json; charset=utf-8', etag: '"1"', 'x-count': '3' },
        '{"n":1}',
      ),
    ).toEqual([]);
    expect(codes(204, {}, '')).toEqual([]);
  });

  test('a status neither listed nor in a range nor default is undeclared, naming the problem', () => {
    const [problem] = checkAnswer(
      responses,
      answer(302, { 'content-type': 'application/problem+json' }, '{"title":"Found","detail":"elsewhere"}'),
      root,
    );
    expect(problem?.code).toBe('undeclared-status');
    expect(problem?.message).toContain('Found - elsewhere');
    expect(codes(404, { 'content-type': 'application/problem+json' }, '{}')).toEqual([]);
  });

  test('media types: listed by essence, ranges count, a body without a type or on a contentless status is flagged', () => {
    expect(codes(500, { 'content-type': 'text/plain' }, 'abc')).toEqual([]);
    expect(codes(200, { 'content-type': 'text/html', etag: 'x', 'x-count': '1' }, '<p>')).toEqual([
      'media-type-not-listed',
    ]);
    expect(codes(200, { etag: 'x', 'x-count': '1' }, '{"n":1}')).toEqual(['media-type-not-listed']);
    expect(codes(204, { 'content-type': 'text/plain' }, 'x')).toEqual([]);
    expect(
      checkAnswer({ '201': {} }, answer(201, { 'content-type': 'text/plain' }, 'x'), root).map((p) => p.code),
    ).toEqual(['undocumented-body']);
  });

  test('bodies: JSON parsed and checked through $ref, text checked as a string, non-JSON under JSON flagged', () => {
    expect(
      codes(200, { 'content-type': 'application/json', etag: 'x', 'x-count': '1' }, '{"n":"one"}'),
    ).toEqual(['body-off-schema']);
    expect(codes(200, { 'content-type': 'application/json', etag: 'x', 'x-count': '1' }, '{')).toEqual([
      'body-off-schema',
    ]);
    expect(codes(500, { 'content-type': 'text/plain' }, 'abcd')).toEqual(['body-off-schema']);
    // A stream that did not end in time is judged on its status and media type only.
    expect(codes(200, { 'content-type': 'application/json', etag: 'x', 'x-count': '1' }, undefined)).toEqual(
      [],
    );
  });

  test('headers: a required one absent is missing-header, an optional one a warning, a value off its schema flagged', () => {
    expect(codes(200, { 'content-type': 'application/json', 'x-count': '1' }, '{"n":1}')).toEqual([
      'missing-header',
    ]);
    expect(
      codes(200, { 'content-type': 'application/json', etag: 'x', 'x-count': 'many' }, '{"n":1}'),
    ).toEqual(['header-off-schema']);
    const optional = checkAnswer(
      { '200': { headers: { 'X-Count': { schema: { type: 'integer' } } } } },
      answer(200, {}, ''),
      root,
    );
    expect(optional.map((p) => p.code)).toEqual(['documented-header-absent']);
  });

  test('documentedResponse and listedMediaType follow OpenAPI §4.8.16.2 and §4.8.14', () => {
    const fallback = { description: 'any other' };
    const range = { description: 'a client error' };
    expect(documentedResponse({ default: fallback }, 418) as unknown).toBe(fallback);
    expect(documentedResponse({ '4XX': range, default: fallback }, 418) as unknown).toBe(range);
    expect(documentedResponse({}, 418)).toBeUndefined();
    expect(listedMediaType({ 'application/json': {} }, 'Application/JSON; charset=utf-8')).toBe(
      'application/json',
    );
    expect(listedMediaType({ 'image/*': {} }, 'image/png')).toBe('image/*');
    expect(listedMediaType({ '*/*': {} }, 'x/y')).toBe('*/*');
    expect(listedMediaType({ 'text/plain': {} }, 'text/html')).toBeUndefined();
  });
});

describe('fuzz values', () => {
  test('Random is deterministic for a seed, and seedFor separates operations', () => {
    const a = new Random(42);
    const b = new Random(42);
    const draws = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(draws);
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    expect(seedFor(1, 'GET /a')).not.toBe(seedFor(1, 'GET /b'));
    expect(seedFor(1, 'GET /a')).toBe(seedFor(1, 'GET /a'));
  });

  test('validValue gives values the schema admits, over many seeds and shapes', () => {
    const schemas = [
      { type: 'integer', minimum: 5, maximum: 7 },
      { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      { type: 'integer', multipleOf: 5, minimum: 12 },
      { type: 'string', minLength: 3, maxLength: 4 },
      { type: 'string', format: 'email' },
      { type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 2 },
      { anyOf: [{ type: 'null' }, { enum: ['a', 'b'] }] },
      { $ref: '#/components/schemas/Item' },
      { allOf: [{ type: 'object', properties: { a: { const: 1 } }, required: ['a'] }] },
    ];
    for (let seed = 0; seed < 25; seed++) {
      const random = new Random(seed);
      for (const schema of schemas) {
        const made = validValue(schema, random, root);
        expect(made).toBeDefined();
        expect(checkJsonSchema(schema, made?.value, root)).toEqual([]);
      }
    }
  });

  test('validValue gives up (undefined) on a schema nothing satisfies', () => {
    expect(validValue({ type: 'string', minLength: 3, maxLength: 2 }, new Random(1), {})).toBeUndefined();
  });

  test('invalidValues breaks a field four ways at least, past its maxLength', () => {
    const mutations = invalidValues({ type: 'string', maxLength: 10 }, {}, new Random(1));
    expect(mutations.map((m) => m.label)).toEqual(['wrong type', 'empty', 'too long', 'control characters']);
    expect((mutations[2]?.value as string).length).toBe(11);
    expect(mutations[3]?.value).toContain('\u0000');
    expect(invalidValues({ type: 'integer' }, {}, new Random(1)).map((m) => m.label)).toContain(
      'wrong type (fraction)',
    );
  });
});

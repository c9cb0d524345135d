import { describe, expect, test } from 'bun:test';
import { checkJsonSchema, jsonEqual } from './json-schema-check.ts';

const ok = (schema: unknown, value: unknown, root?: unknown) =>
  expect(checkJsonSchema(schema, value, root)).toEqual([]);
const bad = (schema: unknown, value: unknown, pattern: RegExp, root?: unknown) => {
  const issues = checkJsonSchema(schema, value, root);
  expect(issues.length).toBeGreaterThan(0);
  expect(issues.join('\n')).toMatch(pattern);
};

describe('checkJsonSchema', () => {
  test('type: each JSON type, integer as a whole number, a list of types', () => {
    ok({ type: 'integer' }, 3);
    bad({ type: 'integer' }, 3.5, /must be integer/);
    ok({ type: 'number' }, 3.5);
    bad({ type: 'number' }, '3', /must be number/);
    ok({ type: ['string', 'null'] }, null);
    bad({ type: ['string', 'null'] }, 1, /string or null/);
    ok({ type: 'object' }, {});
    bad({ type: 'object' }, [], /must be object/);
    ok({ type: 'array' }, []);
    ok({ type: 'boolean' }, false);
  });

  test('const and enum compare JSON values structurally', () => {
    ok({ const: { a: [1, 2] } }, { a: [1, 2] });
    bad({ const: 'x' }, 'y', /must be "x"/);
    ok({ enum: ['a', 1, null] }, null);
    bad({ enum: ['a', 'b'] }, 'c', /one of/);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual([1], [1, 2])).toBe(false);
  });

  test('strings: lengths in code points, pattern', () => {
    ok({ type: 'string', maxLength: 1 }, '😀');
    bad({ type: 'string', maxLength: 2 }, 'abc', /at most 2/);
    bad({ type: 'string', minLength: 1 }, '', /at least 1/);
    ok({ type: 'string', pattern: '^[a-z]+$' }, 'abc');
    bad({ type: 'string', pattern: '^[a-z]+$' }, 'ab1', /pattern/);
  });

  test('numbers: bounds, exclusive bounds, multipleOf', () => {
    bad({ minimum: 1 }, 0, />= 1/);
    bad({ maximum: 1 }, 2, /<= 1/);
    bad({ exclusiveMinimum: 1 }, 1, /> 1/);
    bad({ exclusiveMaximum: 1 }, 1, /< 1/);
    ok({ multipleOf: 0.1 }, 0.3);
    bad({ multipleOf: 2 }, 3, /multiple of 2/);
  });

  test('objects: required, properties, additionalProperties, patternProperties, property counts', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    ok(schema, { a: 'x' });
    bad(schema, {}, /\.a is required/);
    bad(schema, { a: 'x', b: 1 }, /\.b is not an allowed member/);
    bad(schema, { a: 1 }, /\.a must be string/);
    ok({ patternProperties: { '^x-': { type: 'number' } }, additionalProperties: false }, { 'x-a': 1 });
    bad({ additionalProperties: { type: 'number' } }, { z: 'no' }, /\.z must be number/);
    bad({ minProperties: 1 }, {}, /at least 1 members/);
    bad({ dependentRequired: { a: ['b'] } }, { a: 1 }, /\.b is required with a/);
  });

  test('arrays: items, prefixItems, counts, uniqueItems, contains', () => {
    ok({ type: 'array', items: { type: 'number' } }, [1, 2]);
    bad({ type: 'array', items: { type: 'number' } }, [1, 'x'], /\[1\] must be number/);
    bad({ prefixItems: [{ type: 'string' }] }, [1], /\[0\] must be string/);
    bad({ minItems: 1 }, [], /at least 1 items/);
    bad({ maxItems: 0 }, [1], /at most 0 items/);
    bad({ uniqueItems: true }, [{ a: 1 }, { a: 1 }], /repeats/);
    bad({ contains: { const: 2 } }, [1], /at least 1 matching/);
  });

  test('applicators: allOf, anyOf, oneOf, not, if/then/else', () => {
    ok({ allOf: [{ type: 'number' }, { minimum: 1 }] }, 2);
    bad({ allOf: [{ type: 'number' }, { minimum: 1 }] }, 0, />= 1/);
    ok({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 1);
    bad({ anyOf: [{ type: 'string' }, { type: 'number' }] }, null, /none of the anyOf/);
    bad({ oneOf: [{ type: 'number' }, { minimum: 0 }] }, 1, /exactly one oneOf branch \(matches 2\)/);
    bad({ not: { type: 'null' } }, null, /must not match/);
    const conditional = {
      if: { properties: { kind: { const: 'a' } } },
      then: { required: ['a'] },
      else: { required: ['b'] },
    };
    bad(conditional, { kind: 'a' }, /\.a is required/);
    bad(conditional, { kind: 'z' }, /\.b is required/);
  });

  test('$ref resolves JSON pointers against the root (the document), recursive schemas included', () => {
    const root = {
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { next: { $ref: '#/components/schemas/Node' }, v: { type: 'number' } },
          },
          'a/b': { type: 'string' },
        },
      },
    };
    ok({ $ref: '#/components/schemas/Node' }, { v: 1, next: { v: 2, next: {} } }, root);
    bad(
      { $ref: '#/components/schemas/Node' },
      { next: { next: { v: 'x' } } },
      /\.next\.next\.v must be number/,
      root,
    );
    ok({ $ref: '#/components/schemas/a~1b' }, 'x', root);
    bad({ $ref: '#/components/schemas/Missing' }, 1, /does not resolve/, root);
  });

  test('boolean schemas, format as an annotation, a cyclic $ref stops at the depth cap', () => {
    ok(true, 1);
    bad(false, 1, /not allowed/);
    ok({ type: 'string', format: 'email' }, 'not an email');
    const root = { $defs: { Loop: { $ref: '#/$defs/Loop' } } };
    bad({ $ref: '#/$defs/Loop' }, 1, /nests deeper/, root);
  });

  test('the issue list is capped', () => {
    const issues = checkJsonSchema(
      { type: 'array', items: { type: 'string' } },
      Array.from({ length: 100 }, () => 1),
    );
    expect(issues.length).toBe(20);
  });
});

import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { type } from 'arktype';
import fc from 'fast-check';
import * as z from 'zod';
import { MAX_SAMPLE_DEPTH, sampleFromJsonSchema } from './sample.ts';

const value = (schema: unknown) => {
  const result = sampleFromJsonSchema(schema as never);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
};

describe('sampleFromJsonSchema', () => {
  test('takes const and the first enum value before anything else', () => {
    expect(value({ type: 'string', const: 'fixed' })).toBe('fixed');
    expect(value({ enum: ['b', 'a'] })).toBe('b');
  });

  test('gives strings of the named formats, and sample text cut or padded to the length bounds', () => {
    expect(value({ type: 'string', format: 'uuid' })).toBe('00000000-0000-4000-8000-000000000000');
    expect(value({ type: 'string', format: 'email' })).toBe('user@example.com');
    expect(value({ type: 'string', format: 'date-time' })).toBe('2024-01-01T00:00:00Z');
    expect(value({ type: 'string', format: 'date' })).toBe('2024-01-01');
    expect(value({ type: 'string', format: 'uri' })).toBe('https://example.com/');
    expect(value({ type: 'string' })).toBe('sample');
    expect(value({ type: 'string', maxLength: 3 })).toBe('sam');
    expect(value({ type: 'string', minLength: 9 })).toBe('sampleaaa');
    expect(value({ type: 'string', format: 'email', maxLength: 4 })).toBe('samp');
    expect(sampleFromJsonSchema({ type: 'string', minLength: 5, maxLength: 2 })).toEqual({
      ok: false,
      reason: 'maxLength is below minLength',
    });
  });

  test('gives numbers within inclusive and exclusive bounds and multiples', () => {
    expect(value({ type: 'integer' })).toBe(1);
    expect(value({ type: 'integer', minimum: 5, maximum: 9 })).toBe(5);
    expect(value({ type: 'integer', exclusiveMinimum: 5 })).toBe(6);
    expect(value({ type: 'integer', maximum: -3 })).toBe(-3);
    expect(value({ type: 'integer', exclusiveMaximum: 0 })).toBe(-1);
    expect(value({ type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 2 })).toBe(1.5);
    expect(value({ type: 'integer', minimum: 7, multipleOf: 5 })).toBe(10);
    expect(value({ type: 'integer', multipleOf: 3 })).toBe(3);
    expect(sampleFromJsonSchema({ type: 'integer', minimum: 2, maximum: 1 }).ok).toBe(false);
  });

  test('builds objects with their required properties and arrays with minItems', () => {
    expect(
      value({
        type: 'object',
        properties: { a: { type: 'boolean' }, b: { type: 'string' }, n: { type: 'null' } },
        required: ['a', 'n'],
      }),
    ).toEqual({ a: true, n: null });
    expect(value({ type: 'array', items: { type: 'integer' }, minItems: 2 })).toEqual([1, 1]);
    expect(value({ type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true })).toEqual([
      'sample',
      'sample1',
    ]);
    expect(value({ type: 'array', prefixItems: [{ const: 'x' }, { type: 'integer' }], minItems: 2 })).toEqual(
      ['x', 1],
    );
    expect(value({ type: 'array' })).toEqual([]);
  });

  test('follows $ref into $defs, takes the first anyOf/oneOf branch and merges allOf', () => {
    expect(
      value({
        $defs: { Id: { type: 'integer', minimum: 3 }, 'a/b': { const: 'slash' } },
        type: 'object',
        properties: { id: { $ref: '#/$defs/Id' }, s: { $ref: '#/$defs/a~1b' } },
        required: ['id', 's'],
      }),
    ).toEqual({ id: 3, s: 'slash' });
    expect(value({ anyOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe(true);
    expect(value({ oneOf: [{ type: 'null' }] })).toBe(null);
    expect(
      value({
        allOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          { properties: { b: { const: 2 } }, required: ['b'] },
        ],
      }),
    ).toEqual({ a: 1, b: 2 });
    expect(value({ type: ['null', 'string'] })).toBe('sample');
  });

  test('gives up, with a reason, on external refs, recursion and huge bounds', () => {
    expect(sampleFromJsonSchema({ $ref: 'https://example.com/s.json' })).toEqual({
      ok: false,
      reason: 'the $ref "https://example.com/s.json" points outside the schema',
    });
    expect(sampleFromJsonSchema({ $ref: '#/$defs/Missing' }).ok).toBe(false);
    const recursive = {
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } }, required: ['next'] } },
      $ref: '#/$defs/Node',
    };
    expect(sampleFromJsonSchema(recursive)).toEqual({
      ok: false,
      reason: `the schema nests deeper than ${MAX_SAMPLE_DEPTH} levels`,
    });
    expect(sampleFromJsonSchema({ type: 'array', minItems: 1_000_000 }).ok).toBe(false);
    expect(sampleFromJsonSchema(false).ok).toBe(false);
  });

  test('its samples validate against the arktype, zod and TypeBox schemas they came from', async () => {
    const schemas = [
      type({
        id: 'string.uuid',
        email: 'string.email',
        age: '18 <= number.integer < 130',
        tags: 'string[] > 0',
      }),
      z.object({
        when: z.iso.datetime(),
        day: z.iso.date(),
        kind: z.enum(['a', 'b']),
        n: z.number().gt(0).lt(1),
      }),
    ];
    for (const schema of schemas) {
      const json = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
      const sample = value(json);
      expect((await schema['~standard'].validate(sample)).issues).toBeUndefined();
    }
    const tb = Type.Object({
      a: Type.String({ minLength: 2 }),
      b: Type.Array(Type.Integer({ minimum: 4 }), { minItems: 1 }),
    });
    expect(value(JSON.parse(JSON.stringify(tb)))).toEqual({ a: 'sample', b: [4] });
  });

  test('never throws, whatever the schema (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (schema) => {
        const result = sampleFromJsonSchema(schema as never);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});

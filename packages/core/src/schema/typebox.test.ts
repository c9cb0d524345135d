import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { toJsonSchema } from './json-schema.ts';
import { typebox } from './typebox.ts';
import { isStandardSchema, validate } from './validate.ts';

const User = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  'a/b': Type.Optional(Type.String()),
});

describe('typebox()', () => {
  for (const [label, schema] of [
    ['a compiled check', typebox(TypeCompiler.Compile(User))],
    ['a schema with the Value module', typebox(User, Value)],
  ] as const) {
    test(`makes ${label} a Standard Schema that accepts valid values`, async () => {
      expect(isStandardSchema(schema)).toBe(true);
      expect(await validate(schema, { id: 1, name: 'ada' })).toEqual({
        ok: true,
        value: { id: 1, name: 'ada' },
      });
    });

    test(`reports issues of ${label} with paths from JSON Pointers`, async () => {
      const result = await validate(schema, { id: 0, name: 'ada', 'a/b': 5 });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.issues.map((i) => i.path)).toContainEqual(['id']);
      expect(result.issues.map((i) => i.path)).toContainEqual(['a/b']);
    });

    test(`keeps the JSON Schema of ${label} without TypeBox's symbol keys`, () => {
      const json = toJsonSchema(schema);
      expect(json?.type).toBe('object');
      expect((json?.properties as Record<string, unknown>).id).toEqual({ type: 'integer', minimum: 1 });
      expect(Object.getOwnPropertySymbols(json ?? {})).toEqual([]);
    });
  }

  test('refuses something that is neither a compiled check nor a schema with Value', () => {
    expect(() => typebox({} as never)).toThrow(/compiled check/);
  });
});

describe('typebox() JSON Schema', () => {
  test('a type keyword inside examples, const or default is data, not a type: the schema describes itself', () => {
    const schema = typebox(
      Type.Object({ kind: Type.String() }, { examples: [{ type: 'cat' }], default: { type: 'dog' } }),
      Value,
    );
    expect(toJsonSchema(schema)).toMatchObject({ type: 'object', examples: [{ type: 'cat' }] });
  });

  test('a JavaScript-only type (Type.Date, Type.Uint8Array) has no JSON Schema', () => {
    expect(toJsonSchema(typebox(Type.Object({ at: Type.Date() }), Value))).toBeUndefined();
    expect(toJsonSchema(typebox(Type.Uint8Array(), Value))).toBeUndefined();
  });
});

describe('typebox() JSON Schema property names', () => {
  test('a property named type is a name, not a type keyword', () => {
    expect(toJsonSchema(typebox(Type.Object({ type: Type.String() }), Value))).toMatchObject({
      properties: { type: { type: 'string' } },
    });
    expect(toJsonSchema(typebox(Type.Object({ type: Type.Date() }), Value))).toBeUndefined();
  });
});

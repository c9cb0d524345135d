import { describe, expect, test } from 'bun:test';
import type { StandardSchemaV1 } from '@charter/core';
import { planField } from './multipart-field.ts';
import { objectJsonSchema } from './multipart-json-schema.ts';

/** A hand-made Standard Schema whose JSON Schema is `json`. */
function described(json: Record<string, unknown>): StandardSchemaV1<string> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => (typeof value === 'string' ? { value } : { issues: [{ message: 'not text' }] }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

const target = { target: 'draft-2020-12' };

describe('objectJsonSchema', () => {
  test('drops each field $schema and moves its $defs to the root', () => {
    const a = described({ $schema: 'x', $ref: '#/$defs/A', $defs: { A: { type: 'string' } } });
    const b = described({ $ref: '#/$defs/A', $defs: { A: { type: 'string' } } });
    expect(objectJsonSchema([planField('a', a), planField('b?', b)], false, 'input', target)).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/A' } },
      required: ['a'],
      $defs: { A: { type: 'string' } },
    });
  });

  test('refuses two fields whose definitions of one name differ', () => {
    const a = described({ $ref: '#/$defs/A', $defs: { A: { type: 'string' } } });
    const b = described({ $ref: '#/$defs/A', $defs: { A: { type: 'number' } } });
    expect(() => objectJsonSchema([planField('a', a), planField('b', b)], true, 'input', target)).toThrow(
      'field "b": its definition "A" clashes',
    );
  });

  test('names the field whose converter throws or gives no object', () => {
    const throwing: StandardSchemaV1<string> = {
      '~standard': {
        ...described({})['~standard'],
        jsonSchema: {
          input: () => {
            throw new Error('cannot express a predicate');
          },
          output: () => [] as unknown as Record<string, unknown>,
        },
      },
    };
    expect(() => objectJsonSchema([planField('p', throwing)], true, 'input', target)).toThrow(
      'field "p": cannot express a predicate',
    );
    expect(() => objectJsonSchema([planField('p', throwing)], true, 'output', target)).toThrow(
      'field "p": its output JSON Schema is not an object',
    );
  });
});

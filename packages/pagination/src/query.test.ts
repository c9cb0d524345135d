import { describe, expect, test } from 'bun:test';
import {
  type AnySchema,
  type InferInput,
  type InferOutput,
  isStandardSchema,
  planCoercion,
  toJsonSchema,
} from '@charter/core';
import fc from 'fast-check';
import { MAX_CURSOR_LENGTH } from './limits.ts';
import { type PaginationQueryOutput, paginationQuery } from './query.ts';

type Result = {
  value?: Record<string, unknown>;
  issues?: ReadonlyArray<{ message: string; path?: unknown }>;
};

function run(schema: AnySchema, input: unknown): Result {
  const result = schema['~standard'].validate(input);
  if (result instanceof Promise) throw new Error('paginationQuery must validate synchronously');
  return result as Result;
}

describe('paginationQuery', () => {
  const schema = paginationQuery();

  test('is a Standard Schema v1 of vendor charter', () => {
    expect(isStandardSchema(schema)).toBe(true);
    expect(schema['~standard'].version).toBe(1);
    expect(schema['~standard'].vendor).toBe('charter');
  });

  test('gives the default limit when the query has none', () => {
    expect(run(schema, {})).toEqual({ value: { limit: 20 } });
  });

  test('treats an empty limit and an empty cursor as absent', () => {
    expect(run(schema, { limit: '', cursor: '' })).toEqual({ value: { limit: 20 } });
  });

  test('converts a decimal limit to a number', () => {
    expect(run(schema, { limit: '10' }).value?.limit).toBe(10);
    expect(run(schema, { limit: '100' }).value?.limit).toBe(100);
    expect(run(schema, { limit: '1' }).value?.limit).toBe(1);
  });

  test('accepts leading zeros (still decimal digits)', () => {
    expect(run(schema, { limit: '007' }).value?.limit).toBe(7);
  });

  test('accepts a limit the App already converted to an integer', () => {
    expect(run(schema, { limit: 42 }).value?.limit).toBe(42);
  });

  for (const bad of ['1e2', '0x10', ' 5', '5 ', '5.0', '+5', '-5', 'ten', '٣', '1_0', '5\n']) {
    test(`refuses the limit ${JSON.stringify(bad)} with an issue that gives the range`, () => {
      const result = run(schema, { limit: bad });
      expect(result.value).toBeUndefined();
      expect(result.issues).toEqual([
        { message: 'limit must be an integer from 1 to 100, written in decimal digits', path: ['limit'] },
      ]);
    });
  }

  for (const bad of ['0', '101', '99999999999999999999']) {
    test(`refuses the out-of-range limit ${bad}`, () => {
      expect(run(schema, { limit: bad }).issues).toEqual([
        { message: 'limit must be an integer from 1 to 100', path: ['limit'] },
      ]);
    });
  }

  for (const bad of [0, 101, 2.5, Number.NaN, -1]) {
    test(`refuses the converted limit ${bad}`, () => {
      expect(run(schema, { limit: bad }).issues?.[0]?.message).toBe('limit must be an integer from 1 to 100');
    });
  }

  test('refuses a limit given twice', () => {
    expect(run(schema, { limit: ['10', '20'] }).issues).toEqual([
      { message: 'limit must be given once, as an integer from 1 to 100', path: ['limit'] },
    ]);
  });

  test('refuses a limit of another type', () => {
    expect(run(schema, { limit: true }).issues?.[0]?.path).toEqual(['limit']);
  });

  test('keeps a cursor up to MAX_CURSOR_LENGTH characters', () => {
    const cursor = 'a'.repeat(MAX_CURSOR_LENGTH);
    expect(run(schema, { cursor }).value).toEqual({ limit: 20, cursor });
  });

  test('refuses a cursor longer than MAX_CURSOR_LENGTH', () => {
    expect(run(schema, { cursor: 'a'.repeat(MAX_CURSOR_LENGTH + 1) }).issues).toEqual([
      { message: 'cursor must be at most 4096 characters', path: ['cursor'] },
    ]);
  });

  test('refuses a cursor given twice, or not as text', () => {
    expect(run(schema, { cursor: ['a', 'b'] }).issues).toEqual([
      { message: 'cursor must be given once', path: ['cursor'] },
    ]);
    expect(run(schema, { cursor: 5 }).issues).toEqual([
      { message: 'cursor must be a string', path: ['cursor'] },
    ]);
  });

  test('reports limit and cursor issues together', () => {
    expect(run(schema, { limit: '0', cursor: ['a', 'b'] }).issues?.length).toBe(2);
  });

  test('passes other query parameters through unchanged', () => {
    expect(run(schema, { q: 'shoes', tag: ['a', 'b'], limit: '5' }).value).toEqual({
      q: 'shoes',
      tag: ['a', 'b'],
      limit: 5,
    });
  });

  test('leaves its input as it was', () => {
    const input = { limit: '5', cursor: '' };
    run(schema, input);
    expect(input).toEqual({ limit: '5', cursor: '' });
  });

  test('keeps a __proto__ parameter as a plain key, never as the prototype', () => {
    const input = JSON.parse('{"__proto__":{"admin":true},"limit":"3"}') as Record<string, unknown>;
    const value = run(schema, input).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { admin?: unknown }).admin).toBeUndefined();
  });

  test('refuses an input that is not a map', () => {
    for (const input of [null, 'limit=5', ['5'], 5]) {
      expect(run(schema, input).issues).toEqual([{ message: 'The query must be a map of parameters' }]);
    }
  });

  test('uses custom parameter names and limits', () => {
    const custom = paginationQuery({
      limitParam: 'per_page',
      cursorParam: 'after',
      maxLimit: 50,
      minLimit: 5,
    });
    expect(run(custom, { per_page: '50', after: 'x', limit: '1000' }).value).toEqual({
      per_page: 50,
      after: 'x',
      limit: '1000',
    });
    expect(run(custom, {}).value).toEqual({ per_page: 20 });
    expect(run(custom, { per_page: '4' }).issues).toEqual([
      { message: 'per_page must be an integer from 5 to 50', path: ['per_page'] },
    ]);
  });

  test('throws for bad options when it is made', () => {
    expect(() => paginationQuery({ maxLimit: 0 })).toThrow(RangeError);
  });

  test('exposes its resolved options', () => {
    expect(paginationQuery({ cursorParam: 'after' }).options.cursorParam).toBe('after');
  });

  test('accepts every in-range decimal limit and refuses every out-of-range one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (n) => {
        const result = run(schema, { limit: String(n) });
        if (n >= 1 && n <= 100) return result.value?.limit === n;
        return result.issues?.length === 1;
      }),
      { numRuns: 500 },
    );
  });

  test('never throws and returns a value or issues for any query map', () => {
    const values = fc.option(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 })), {
      nil: undefined,
    });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('limit', 'cursor', 'q'), values), (query) => {
        const result = run(schema, query);
        return (result.value === undefined) !== (result.issues === undefined);
      }),
      { numRuns: 500 },
    );
  });
});

describe('paginationQuery JSON Schema', () => {
  test('describes limit and cursor as the spec says, other parameters allowed', () => {
    const json = paginationQuery()['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    expect(json).toEqual({
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        cursor: { type: 'string', maxLength: 4096 },
      },
    });
    expect(json.additionalProperties).toBeUndefined();
  });

  test('marks limit required in the output schema', () => {
    const json = paginationQuery({ limitParam: 'n' })['~standard'].jsonSchema.output({
      target: 'draft-2020-12',
    });
    expect(json.required).toEqual(['n']);
  });

  test('uses the configured names and limits', () => {
    const json = paginationQuery({ limitParam: 'size', cursorParam: 'page', maxLimit: 10 })[
      '~standard'
    ].jsonSchema.input({ target: 'draft-2020-12' });
    expect(json.properties).toEqual({
      size: { type: 'integer', minimum: 1, maximum: 10, default: 10 },
      page: { type: 'string', maxLength: 4096 },
    });
  });

  test('gives a fresh object on every call', () => {
    const { input } = paginationQuery()['~standard'].jsonSchema;
    expect(input({ target: 'draft-2020-12' })).not.toBe(input({ target: 'draft-2020-12' }));
  });

  test('answers the draft-07 and openapi-3.0 targets and throws for an unknown one', () => {
    const { input } = paginationQuery()['~standard'].jsonSchema;
    expect(input({ target: 'draft-07' })).toEqual(input({ target: 'draft-2020-12' }));
    expect(input({ target: 'openapi-3.0' })).toEqual(input({ target: 'draft-2020-12' }));
    expect(() => input({ target: 'draft-04' })).toThrow('draft-04');
  });

  test('is what the core reads: limit converted as an integer, cursor left as text', () => {
    const schema = paginationQuery();
    expect(toJsonSchema(schema)?.properties).toBeDefined();
    expect(planCoercion(schema)).toEqual(new Map([['limit', 'integer']]));
  });
});

describe('paginationQuery types', () => {
  test('types the output with the configured parameter names', () => {
    const custom = paginationQuery({ limitParam: 'per_page', cursorParam: 'after' });
    type Out = InferOutput<typeof custom>;
    const value = run(custom, { per_page: '3', after: 'x' }).value as Out;
    const perPage: number = value.per_page;
    const after: string | undefined = value.after;
    // @ts-expect-error the default names are not the output's keys when others are configured
    const wrong: number = value.limit;
    expect([perPage, after, wrong]).toEqual([3, 'x', undefined]);
  });

  test('types the default output as { limit: number; cursor?: string }', () => {
    const out: PaginationQueryOutput = { limit: 1 };
    const limit: number = out.limit;
    const cursor: string | undefined = out.cursor;
    // @ts-expect-error limit is a number, not text
    const bad: PaginationQueryOutput = { limit: '1' };
    expect([limit, cursor, bad.limit]).toEqual([1, undefined, '1']);
  });

  test('types the input for callers: limit as a number or text, cursor as text, other parameters free', () => {
    const custom = paginationQuery({ limitParam: 'n', cursorParam: 'after' });
    type In = InferInput<typeof custom>;
    const empty: In = {};
    const full: In = { n: 10, after: 'x', q: 'shoes', tag: ['a', 'b'] };
    const text: In = { n: '10' };
    // @ts-expect-error the cursor is text
    const bad: In = { after: 5 };
    expect(run(custom, full).value).toEqual({ n: 10, after: 'x', q: 'shoes', tag: ['a', 'b'] });
    expect([run(custom, empty).value?.n, run(custom, text).value?.n]).toEqual([20, 10]);
    expect(run(custom, bad).issues?.[0]?.path).toEqual(['after']);
  });
});

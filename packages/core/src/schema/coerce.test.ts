import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import * as z from 'zod';
import { applyCoercion, coerceFromIssues, planCoercion } from './coerce.ts';

describe('planCoercion', () => {
  test('plans numbers, booleans and arrays from the JSON Schema, and leaves strings alone', () => {
    const plan = planCoercion(
      type({ n: 'number', i: 'number.integer', b: 'boolean', s: 'string', tags: 'number[]' }),
    );
    expect(plan).toEqual(
      new Map<string, unknown>([
        ['n', 'number'],
        ['i', 'integer'],
        ['b', 'boolean'],
        ['tags', { array: 'number' }],
      ]) as never,
    );
  });

  test('does not convert a union that accepts strings', () => {
    expect(planCoercion(type({ v: 'string | number' }))?.has('v')).toBe(false);
  });

  test('plans from zod 4 too', () => {
    expect(planCoercion(z.object({ n: z.number(), b: z.boolean() }))?.get('n')).toBe('number');
  });

  test('gives undefined for a schema without a JSON Schema form', () => {
    const opaque = {
      '~standard': { version: 1 as const, vendor: 'x', validate: (v: unknown) => ({ value: v }) },
    };
    expect(planCoercion(opaque)).toBeUndefined();
  });
});

describe('applyCoercion', () => {
  test('converts only integer notation where the schema asks for an integer', () => {
    const integers = planCoercion(type({ i: 'number.integer' }))!;
    expect(applyCoercion({ i: '42' }, integers)).toEqual({ i: 42 });
    expect(applyCoercion({ i: '-7' }, integers)).toEqual({ i: -7 });
    // Exponent, fraction and hex spellings stay text, so the schema refuses them (422), not 100 or 5.
    for (const text of ['1e2', '5.0', '0x10', '+5', ' 5', '010']) {
      expect(applyCoercion({ i: text }, integers)).toEqual({ i: text });
    }
  });

  const plan = planCoercion(type({ n: 'number', b: 'boolean', tags: 'string[]', ids: 'number[]' }))!;

  test('converts numeric and boolean text and wraps single values in arrays', () => {
    expect(applyCoercion({ n: '10', b: 'true', tags: 'a', ids: ['1', '2'] }, plan)).toEqual({
      n: 10,
      b: true,
      tags: ['a'],
      ids: [1, 2],
    });
  });

  test('leaves text that is not a number as it is, so validation reports it', () => {
    expect(applyCoercion({ n: '10abc', b: 'yes' }, plan)).toEqual({ n: '10abc', b: 'yes' });
    expect(applyCoercion({ n: '' }, plan)).toEqual({ n: '' });
    expect(applyCoercion({ n: '0x10' }, plan)).toEqual({ n: '0x10' });
  });

  test("a planner's plan and a plain Map of the same entries convert alike", () => {
    const plan = planCoercion(type({ n: 'number', 'b?': 'boolean', tags: 'number[]', s: 'string' }))!;
    const plain = new Map(plan);
    for (const raw of [
      { n: '1.5', b: 'true', tags: '3', s: '7' },
      { n: 'x', tags: ['1', 'y'] },
      { s: 's' },
    ]) {
      expect(applyCoercion(raw, plan)).toEqual(applyCoercion(raw, plain));
    }
    expect(applyCoercion({ n: '2', tags: ['1'] }, plan)).toEqual({ n: 2, tags: [1] });
  });

  test('does not mutate its input', () => {
    const input = { n: '1' };
    applyCoercion(input, plan);
    expect(input).toEqual({ n: '1' });
  });
});

describe('coerceFromIssues', () => {
  test('converts the values whose issue asks for a number or a boolean', () => {
    const out = coerceFromIssues({ a: '1', b: '2', c: 'true' }, [
      { path: ['a'], message: 'Invalid type: Expected number but received "1"' },
      { path: ['c'], message: 'Invalid type: Expected boolean but received "true"' },
    ]);
    expect(out).toEqual({ a: 1, b: '2', c: true });
  });

  test('wraps a single value when an array is expected, then converts its elements', () => {
    const wrapped = coerceFromIssues({ ids: '7' }, [
      { path: ['ids'], message: 'Expected Array but received "7"' },
    ]);
    expect(wrapped).toEqual({ ids: ['7'] });
    const converted = coerceFromIssues(wrapped!, [{ path: ['ids', '0'], message: 'Expected number' }]);
    expect(converted).toEqual({ ids: [7] });
  });

  test('leaves values alone when the issue is not about their type', () => {
    expect(
      coerceFromIssues({ name: '12' }, [{ path: ['name'], message: 'Invalid length: Expected >=3' }]),
    ).toBeUndefined();
    expect(coerceFromIssues({ a: 'abc' }, [{ path: ['a'], message: 'Expected number' }])).toBeUndefined();
  });
});

describe('planCoercion with parts JSON Schema cannot express', () => {
  test('an arktype Date field does not stop the numbers next to it from being converted', () => {
    const plan = planCoercion(type({ limit: 'number.integer', since: 'Date' }));
    expect(plan?.get('limit')).toBe('integer');
  });
});

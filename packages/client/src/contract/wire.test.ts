import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import * as v from 'valibot';
import { toWire, validateTextPart } from './wire.ts';

describe('toWire', () => {
  test('turns scalars into text and single-value arrays into the value, as the query parser hands them over', () => {
    expect(toWire({ n: 1, b: true, s: 'x', one: [2], many: [1, 'a'], none: [], skip: undefined })).toEqual({
      n: '1',
      b: 'true',
      s: 'x',
      one: '2',
      many: ['1', 'a'],
    });
    expect(toWire({ at: new Date(0) })).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });

  test('lower-cases header names on request, and gives {} for a non-object', () => {
    expect(toWire({ 'X-Tenant': 'a' }, true)).toEqual({ 'x-tenant': 'a' });
    expect(toWire(undefined)).toEqual({});
  });
});

describe('validateTextPart', () => {
  test('converts text the JSON Schema says is a number or boolean, like the pipeline', async () => {
    const result = await validateTextPart(type({ n: 'number', b: 'boolean' }), { n: '3', b: 'true' });
    expect(result).toEqual({ ok: true, value: { n: 3, b: true } });
    expect((await validateTextPart(type({ n: 'number' }), { n: 'x' })).ok).toBe(false);
  });

  test('converts from issues for schemas without a JSON Schema (valibot)', async () => {
    const schema = v.object({ ids: v.array(v.number()) });
    expect(await validateTextPart(schema, { ids: '7' })).toEqual({ ok: true, value: { ids: [7] } });
    expect((await validateTextPart(schema, { ids: 'seven' })).ok).toBe(false);
  });
});

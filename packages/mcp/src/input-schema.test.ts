import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  assertMcpInputSchema,
  MCP_ENFORCED_KEYWORDS,
  MCP_UNENFORCED_KEYWORDS,
  validateMcpInput,
} from './input-schema.ts';

/** Problems for `value` under an object schema with one property `x` of the given schema. */
function underX(schema: unknown, value: unknown): string[] {
  return validateMcpInput({ type: 'object', properties: { x: schema } }, { x: value });
}

/** A value nested `levels` deep: { next: { next: ... { next: null } } }, built without recursion. */
function deepObject(levels: number): unknown {
  let value: unknown = null;
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

function thrown(run: () => void): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('validateMcpInput', () => {
  test('accepts a value matching every enforced keyword', () => {
    const schema = {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 100 },
        limit: { type: 'integer', minimum: 1, maximum: 50, multipleOf: 5 },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1, maxItems: 3 },
        mode: { enum: ['fast', 'exact'] },
      },
      additionalProperties: false,
    };
    expect(
      validateMcpInput(schema, { query: 'rate limits', limit: 25, tags: ['a', 'b'], mode: 'fast' }),
    ).toEqual([]);
  });

  test('reports the type with the path and the type it got', () => {
    expect(underX({ type: 'string' }, 3)).toEqual(['arguments.x must be a string, got number']);
    expect(underX({ type: 'string' }, 'ok')).toEqual([]);
    expect(validateMcpInput({ type: 'object' }, [1])).toEqual(['arguments must be an object, got array']);
    expect(validateMcpInput({ type: 'object' }, null)).toEqual(['arguments must be an object, got null']);
    expect(validateMcpInput({ type: 'object' }, new Date(0))).toEqual([
      'arguments must be an object, got non-JSON object',
    ]);
  });

  test('checks every type name, integers with Number.isInteger', () => {
    const cases: [string, unknown, unknown][] = [
      ['null', null, 0],
      ['boolean', false, 'false'],
      ['object', {}, []],
      ['array', [], {}],
      ['number', 1.5, '1.5'],
      ['integer', 2, 2.5],
      ['string', '', null],
    ];
    for (const [type, good, bad] of cases) {
      expect(underX({ type }, good)).toEqual([]);
      expect(underX({ type }, bad)).toHaveLength(1);
    }
    expect(underX({ type: 'integer' }, 2.0)).toEqual([]);
    expect(underX({ type: 'integer' }, 2.5)).toEqual(['arguments.x must be an integer, got number']);
    expect(underX({ type: 'number' }, Number.NaN)).toEqual([
      'arguments.x must be a number, got non-finite number',
    ]);
  });

  test('accepts any of the types in a type array', () => {
    const schema = { type: ['string', 'null'] };
    expect(underX(schema, null)).toEqual([]);
    expect(underX(schema, 'a')).toEqual([]);
    expect(underX(schema, 1)).toEqual(['arguments.x must be a string or null, got number']);
    expect(underX({ type: ['string', 'integer', 'array'] }, {})).toEqual([
      'arguments.x must be a string, an integer or an array, got object',
    ]);
  });

  test('stops at a wrong type instead of repeating the mistake through other keywords', () => {
    expect(underX({ type: 'string', enum: ['a'], minLength: 3 }, 5)).toEqual([
      'arguments.x must be a string, got number',
    ]);
  });

  test('enum compares with deep JSON equality and lists short allowed values', () => {
    const schema = { enum: ['asc', 'desc', 3, null, { a: [1, { b: 2 }] }] };
    expect(underX(schema, 'asc')).toEqual([]);
    expect(underX(schema, 3)).toEqual([]);
    expect(underX(schema, null)).toEqual([]);
    expect(underX(schema, { a: [1, { b: 2 }] })).toEqual([]);
    expect(underX(schema, { a: [1, { b: 3 }] })).toEqual([
      'arguments.x must be one of the 5 values listed in the schema',
    ]);
    expect(underX({ enum: ['asc', 'desc'] }, 'up')).toEqual(['arguments.x must be one of "asc", "desc"']);
    expect(underX({ enum: [[1, 2]] }, [2, 1])).toHaveLength(1);
    expect(underX({ enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 })).toEqual([]);
    expect(underX({ enum: [{ a: 1 }] }, { a: 1, b: 2 })).toHaveLength(1);
    expect(underX({ enum: [0] }, -0)).toEqual([]);
    expect(underX({ enum: [1] }, '1')).toHaveLength(1);
  });

  test('const compares with deep JSON equality and never echoes a structured constant', () => {
    expect(underX({ const: { k: [true] } }, { k: [true] })).toEqual([]);
    expect(underX({ const: { k: [true] } }, { k: [false] })).toEqual([
      'arguments.x must equal the constant value given by the schema',
    ]);
    expect(underX({ const: 'v1' }, 'v2')).toEqual(['arguments.x must equal "v1"']);
    expect(underX({ const: null }, null)).toEqual([]);
  });

  test('treats values nested deeper than 64 levels as unequal for enum and const', () => {
    expect(underX({ const: deepObject(60) }, deepObject(60))).toEqual([]);
    expect(underX({ const: deepObject(70) }, deepObject(70))).toHaveLength(1);
    expect(underX({ enum: [deepObject(10_000)] }, deepObject(10_000))).toHaveLength(1);
  });

  test('enforces minimum and maximum inclusively', () => {
    expect(underX({ minimum: 1, maximum: 50 }, 1)).toEqual([]);
    expect(underX({ minimum: 1, maximum: 50 }, 50)).toEqual([]);
    expect(underX({ minimum: 1 }, 0)).toEqual(['arguments.x must be at least 1']);
    expect(
      validateMcpInput(
        { type: 'object', properties: { limit: { type: 'integer', maximum: 50 } } },
        { limit: 51 },
      ),
    ).toEqual(['arguments.limit must be at most 50']);
  });

  test('enforces the 2020-12 numeric exclusive bounds', () => {
    expect(underX({ exclusiveMinimum: 0 }, 0.001)).toEqual([]);
    expect(underX({ exclusiveMinimum: 0 }, 0)).toEqual(['arguments.x must be greater than 0']);
    expect(underX({ exclusiveMaximum: 10 }, 9.99)).toEqual([]);
    expect(underX({ exclusiveMaximum: 10 }, 10)).toEqual(['arguments.x must be less than 10']);
  });

  test('numeric keywords ignore non-numbers', () => {
    expect(underX({ minimum: 5, multipleOf: 2 }, 'text')).toEqual([]);
  });

  test('multipleOf is exact for integers and tolerant of binary rounding for decimals', () => {
    expect(underX({ multipleOf: 5 }, 25)).toEqual([]);
    expect(underX({ multipleOf: 5 }, 26)).toEqual(['arguments.x must be a multiple of 5']);
    expect(underX({ multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(underX({ multipleOf: 0.1 }, 1.1)).toEqual([]);
    expect(underX({ multipleOf: 0.01 }, 19.99)).toEqual([]);
    expect(underX({ multipleOf: 0.01 }, 4.35)).toEqual([]);
    expect(underX({ multipleOf: 0.1 }, 0.15)).toEqual(['arguments.x must be a multiple of 0.1']);
    expect(underX({ multipleOf: 0.01 }, 0.015)).toHaveLength(1);
    expect(underX({ multipleOf: 0.1 }, -0.7)).toEqual([]);
    expect(underX({ multipleOf: 0.1 }, 0)).toEqual([]);
    // JSON-Schema-Test-Suite "float division = inf": an overflowing quotient is not a multiple.
    expect(underX({ multipleOf: 0.123456789 }, 1e308)).toHaveLength(1);
  });

  test('multipleOf agrees with decimal arithmetic on every hundredth step', () => {
    for (let k = -2000; k <= 2000; k++) {
      const value = Number((k / 100).toFixed(2));
      expect(underX({ multipleOf: 0.05 }, value)).toHaveLength(k % 5 === 0 ? 0 : 1);
    }
  });

  test('counts string length in Unicode code points', () => {
    expect('😀'.length).toBe(2);
    expect(underX({ maxLength: 1 }, '😀')).toEqual([]);
    expect(underX({ minLength: 2 }, '😀')).toEqual(['arguments.x must be at least 2 characters long, got 1']);
    expect(underX({ minLength: 2, maxLength: 2 }, 'é😀')).toEqual([]);
    expect(underX({ maxLength: 3 }, 'abcd')).toEqual([
      'arguments.x must be at most 3 characters long, got 4',
    ]);
    expect(underX({ maxLength: 1 }, 'ab')).toEqual(['arguments.x must be at most 1 character long, got 2']);
    expect(underX({ minLength: 1 }, '')).toEqual(['arguments.x must be at least 1 character long, got 0']);
    // A lone surrogate counts as one code point.
    expect(underX({ maxLength: 1 }, '\ud800')).toEqual([]);
    expect(underX({ maxLength: 1 }, '\ud800\ud800')).toHaveLength(1);
  });

  test('string length problems report the length, never the string', () => {
    const secret = `sk-${'x'.repeat(5000)}`;
    const problems = underX({ maxLength: 10 }, secret);
    expect(problems).toEqual(['arguments.x must be at most 10 characters long, got 5003']);
    expect(problems.join('')).not.toContain('sk-');
  });

  test('enforces minItems and maxItems', () => {
    expect(underX({ minItems: 1, maxItems: 2 }, [1])).toEqual([]);
    expect(underX({ minItems: 1 }, [])).toEqual(['arguments.x must have at least 1 item, got 0']);
    expect(underX({ maxItems: 2 }, [1, 2, 3])).toEqual(['arguments.x must have at most 2 items, got 3']);
  });

  test('uniqueItems finds deep-equal items and names their indices', () => {
    expect(underX({ uniqueItems: true }, [1, '1', [1], { a: 1 }, { a: '1' }, null, false, 0])).toEqual([]);
    expect(underX({ uniqueItems: true }, [{ a: 1, b: [2] }, 'x', { b: [2], a: 1 }])).toEqual([
      'arguments.x must not contain equal items, but items 0 and 2 are equal',
    ]);
    expect(underX({ uniqueItems: true }, [0, -0])).toHaveLength(1);
    expect(underX({ uniqueItems: false }, [1, 1])).toEqual([]);
  });

  test('uniqueItems handles a 100 000-item array of records, strings and numbers', () => {
    const records = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `n${i}` }));
    expect(underX({ uniqueItems: true }, records)).toEqual([]);
    records.push({ name: 'n77777', id: 77_777 });
    expect(underX({ uniqueItems: true }, records)).toEqual([
      'arguments.x must not contain equal items, but items 77777 and 100000 are equal',
    ]);
    const strings = Array.from({ length: 100_000 }, (_, i) => `item-${i}`);
    expect(underX({ uniqueItems: true }, strings)).toEqual([]);
    const numbers = Array.from({ length: 100_000 }, (_, i) => i / 4);
    numbers.push(0.25);
    expect(underX({ uniqueItems: true }, numbers)).toEqual([
      'arguments.x must not contain equal items, but items 1 and 100000 are equal',
    ]);
    // A correctness test, not a timed one: a loaded machine may take longer than the default 5 s.
  }, 60_000);

  test('items applies a schema to every item, with the index in the path', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } };
    expect(validateMcpInput(schema, { tags: ['a', 'b'] })).toEqual([]);
    expect(validateMcpInput(schema, { tags: ['a', 2, 'c', true] })).toEqual([
      'arguments.tags[1] must be a string, got number',
      'arguments.tags[3] must be a string, got boolean',
    ]);
  });

  test('prefixItems checks positions and items covers the rest', () => {
    const schema = { prefixItems: [{ type: 'string' }, { type: 'integer' }], items: { type: 'boolean' } };
    expect(underX(schema, ['a', 1, true, false])).toEqual([]);
    expect(underX(schema, ['a'])).toEqual([]);
    expect(underX(schema, [1, 'a', 'b'])).toEqual([
      'arguments.x[0] must be a string, got number',
      'arguments.x[1] must be an integer, got string',
      'arguments.x[2] must be a boolean, got string',
    ]);
    expect(underX({ prefixItems: [{ type: 'string' }] }, ['a', 1, {}])).toEqual([]);
  });

  test('boolean items: true accepts all, false refuses items after the prefix', () => {
    expect(underX({ items: true }, [1, 'a'])).toEqual([]);
    expect(underX({ prefixItems: [{}, {}], items: false }, [1, 2])).toEqual([]);
    expect(underX({ prefixItems: [{}, {}], items: false }, [1, 2, 3])).toEqual([
      'arguments.x must have at most 2 items, got 3',
    ]);
    expect(underX({ items: false }, [])).toEqual([]);
    expect(underX({ items: false }, [1])).toEqual(['arguments.x must have at most 0 items, got 1']);
  });

  test('required names each missing property', () => {
    const schema = { type: 'object', required: ['query', 'limit'] };
    expect(validateMcpInput(schema, { query: 'q', limit: 1 })).toEqual([]);
    expect(validateMcpInput(schema, { limit: 1 })).toEqual(['arguments must have the property "query"']);
    expect(validateMcpInput(schema, {})).toHaveLength(2);
  });

  test('required and properties look at own properties only', () => {
    const schema = {
      type: 'object',
      required: ['toString'],
      properties: { constructor: { type: 'string' } },
    };
    expect(validateMcpInput(schema, {})).toEqual(['arguments must have the property "toString"']);
    // JSON.parse makes "__proto__" an own property of both the schema and the value.
    const own = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}');
    expect(validateMcpInput(own, JSON.parse('{"__proto__": "ok"}'))).toEqual([]);
    expect(validateMcpInput(own, JSON.parse('{"__proto__": 5}'))).toEqual([
      'arguments.__proto__ must be a string, got number',
    ]);
  });

  test('properties checks only the properties that are present', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } };
    expect(validateMcpInput(schema, { a: 'x' })).toEqual([]);
    expect(validateMcpInput(schema, { a: 1, b: 'y' })).toEqual([
      'arguments.a must be a string, got number',
      'arguments.b must be a number, got string',
    ]);
  });

  test('a property with the false schema is refused', () => {
    expect(underX(false, 1)).toEqual(['arguments.x is not allowed']);
    expect(validateMcpInput({ type: 'object', properties: { x: false } }, {})).toEqual([]);
  });

  test('additionalProperties false names each unexpected property', () => {
    const schema = { type: 'object', properties: { a: {} }, additionalProperties: false };
    expect(validateMcpInput(schema, { a: 1 })).toEqual([]);
    expect(validateMcpInput(schema, { a: 1, x: 2, 'odd key': 3 })).toEqual([
      'arguments has the unexpected property "x"',
      'arguments has the unexpected property "odd key"',
    ]);
    expect(validateMcpInput({ type: 'object', additionalProperties: false }, { any: 1 })).toHaveLength(1);
  });

  test('additionalProperties as a schema applies to names not in properties', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: { type: 'number' },
    };
    expect(validateMcpInput(schema, { id: 'a', x: 1, y: 2 })).toEqual([]);
    expect(validateMcpInput(schema, { id: 'a', x: 'no' })).toEqual([
      'arguments.x must be a number, got string',
    ]);
    expect(validateMcpInput({ type: 'object', additionalProperties: true }, { x: 1 })).toEqual([]);
  });

  test('additionalProperties is not enforced beside patternProperties, whose patterns are not evaluated', () => {
    const schema = { type: 'object', patternProperties: { '^x-': {} }, additionalProperties: false };
    expect(validateMcpInput(schema, { 'x-a': 1, other: 2 })).toEqual([]);
  });

  test('enforces minProperties and maxProperties', () => {
    expect(validateMcpInput({ type: 'object', minProperties: 1, maxProperties: 2 }, { a: 1 })).toEqual([]);
    expect(validateMcpInput({ type: 'object', minProperties: 1 }, {})).toEqual([
      'arguments must have at least 1 property, got 0',
    ]);
    expect(validateMcpInput({ type: 'object', maxProperties: 2 }, { a: 1, b: 2, c: 3 })).toEqual([
      'arguments must have at most 2 properties, got 3',
    ]);
  });

  test('boolean root schemas accept everything or nothing', () => {
    expect(validateMcpInput(true, { a: [1] })).toEqual([]);
    expect(validateMcpInput(false, {})).toEqual(['arguments is not allowed']);
    expect(validateMcpInput({}, 'anything')).toEqual([]);
  });

  test('a schema that is not a JSON Schema fails closed', () => {
    expect(validateMcpInput(undefined, {})).toEqual([
      'arguments cannot be checked: its schema is not a JSON Schema object or boolean',
    ]);
    expect(underX('string', 'a')).toHaveLength(1);
  });

  test('advertised-only keywords are ignored', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[0-9]+$', format: 'email' },
        choice: { anyOf: [{ type: 'string' }], oneOf: [{ type: 'string' }], allOf: [{ type: 'string' }] },
        ref: { $ref: '#/$defs/never' },
        neg: { not: {} },
        list: { type: 'array', contains: { const: 'needle' } },
      },
      $defs: { never: false },
      dependentRequired: { code: ['missing'] },
      propertyNames: { maxLength: 1 },
      unevaluatedProperties: false,
    };
    expect(validateMcpInput(schema, { code: 'abc', choice: 5, ref: 1, neg: 1, list: [] })).toEqual([]);
  });

  test('names odd and long property names with JSON quoting and cuts them at 64 characters', () => {
    const long = 'k'.repeat(100);
    const schema = { type: 'object', additionalProperties: { type: 'string' } };
    expect(validateMcpInput(schema, { 'with space': 1 })).toEqual([
      'arguments["with space"] must be a string, got number',
    ]);
    expect(validateMcpInput(schema, { 'a"b': 1 })).toEqual([
      'arguments["a\\"b"] must be a string, got number',
    ]);
    expect(validateMcpInput(schema, { $ok_1: 1 })).toEqual(['arguments.$ok_1 must be a string, got number']);
    expect(validateMcpInput(schema, { [long]: 1 })).toEqual([
      `arguments["${'k'.repeat(64)}…"] must be a string, got number`,
    ]);
    expect(validateMcpInput({ type: 'object', required: [long] }, {})).toEqual([
      `arguments must have the property "${'k'.repeat(64)}…"`,
    ]);
  });

  test('never echoes the offending value', () => {
    const secret = 'hunter2-secret-token';
    const problems = validateMcpInput(
      {
        type: 'object',
        properties: { a: { type: 'number' }, b: { enum: ['x'] }, c: { const: 'y' }, d: { maxLength: 3 } },
      },
      { a: secret, b: secret, c: secret, d: secret },
    );
    expect(problems).toHaveLength(4);
    for (const problem of problems) expect(problem).not.toContain('hunter2');
  });

  test('lists at most 20 problems, then one line saying there are more', () => {
    const schema = { type: 'object', additionalProperties: { type: 'string' } };
    const value = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, i]));
    const problems = validateMcpInput(schema, value);
    expect(problems).toHaveLength(21);
    expect(problems[19]).toBe('arguments.p19 must be a string, got number');
    expect(problems[20]).toBe('... and more problems');
    const exactly20 = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, i]));
    expect(validateMcpInput(schema, exactly20)).toHaveLength(20);
  });

  test('stops early on a huge array full of problems', () => {
    const problems = underX({ items: { type: 'string' } }, new Array(1_000_000).fill(0));
    expect(problems).toHaveLength(21);
    expect(problems[0]).toBe('arguments.x[0] must be a string, got number');
  });

  test('walks a 1 000 000-item array without recursion per item', () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => ({ n: i }));
    const schema = { items: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } } } };
    expect(underX(schema, items)).toEqual([]);
    // A correctness test, not a timed one: a loaded machine may take longer than the default 5 s.
  }, 60_000);

  test('a cyclic schema stops at schema depth 64 with a "schema too deep" problem', () => {
    const schema: Record<string, unknown> = { type: ['object', 'null'], properties: {} };
    (schema.properties as Record<string, unknown>).next = schema;
    expect(validateMcpInput(schema, deepObject(10))).toEqual([]);
    expect(validateMcpInput(schema, deepObject(64))).toEqual([]);
    const problems = validateMcpInput(schema, deepObject(10_000));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith(`arguments${'.next'.repeat(65)} cannot be checked: schema too deep`);
    const arrays: Record<string, unknown> = { type: 'array' };
    arrays.items = arrays;
    let nested: unknown = [];
    for (let i = 0; i < 1000; i++) nested = [nested];
    expect(validateMcpInput(arrays, nested)[0]).toContain('schema too deep');
  });

  test('a value nested 10 000 levels under an unconstrained property passes', () => {
    const schema = { type: 'object', properties: { data: {}, list: { type: 'array' } } };
    expect(validateMcpInput(schema, { data: deepObject(10_000), list: [deepObject(10_000)] })).toEqual([]);
    expect(underX({ uniqueItems: true }, [deepObject(10_000), deepObject(10_000)])).toEqual([]);
  });

  test('property: { type: "object" } accepts exactly the plain objects', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
        expect(validateMcpInput({ type: 'object' }, value).length === 0).toBe(isObject);
      }),
      { numRuns: 500 },
    );
  });

  test('property: the true schema accepts every JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validateMcpInput(true, value)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  test('property: uniqueItems agrees with pairwise JSON equality', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 12 }), (items) => {
        const texts = items.map((item) => JSON.stringify(canonical(item)));
        const unique = new Set(texts).size === texts.length;
        expect(underX({ uniqueItems: true }, items).length === 0).toBe(unique);
      }),
      { numRuns: 500 },
    );
  });
});

/** A JSON value with sorted keys and -0 as 0, so JSON.stringify gives one text per equality class. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'number' && value === 0) return 0;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(out, key, {
      value: canonical((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe('MCP keyword lists', () => {
  test('enforced and advertised-only keywords do not overlap and are frozen', () => {
    const enforced = new Set(MCP_ENFORCED_KEYWORDS);
    for (const keyword of MCP_UNENFORCED_KEYWORDS) expect(enforced.has(keyword)).toBe(false);
    expect(MCP_ENFORCED_KEYWORDS).toContain('additionalProperties');
    expect(MCP_UNENFORCED_KEYWORDS).toContain('pattern');
    expect(Object.isFrozen(MCP_ENFORCED_KEYWORDS)).toBe(true);
    expect(Object.isFrozen(MCP_UNENFORCED_KEYWORDS)).toBe(true);
  });
});

describe('assertMcpInputSchema', () => {
  const where = 'tool "search": inputSchema';

  test('accepts a well-formed object schema, including unknown and advertised-only keywords', () => {
    const shared = { type: 'string', maxLength: 10 };
    expect(() =>
      assertMcpInputSchema(
        {
          type: 'object',
          title: 'Search',
          'x-vendor': { anything: true },
          properties: {
            query: { type: 'string', minLength: 1, pattern: '^a', format: 'email' },
            limit: {
              type: ['integer', 'null'],
              minimum: 1,
              maximum: 50,
              exclusiveMaximum: 51,
              multipleOf: 1,
            },
            tags: { type: 'array', items: shared, uniqueItems: true, minItems: 0, maxItems: 5 },
            pair: { prefixItems: [shared, true], items: false },
            meta: { type: 'object', additionalProperties: shared, minProperties: 0, maxProperties: 3 },
            choice: { anyOf: [{ type: 'string' }], enum: ['a', 'b'], const: 'a' },
          },
          required: ['query'],
          additionalProperties: false,
          $defs: { whatever: { type: 'nonsense' } },
        },
        where,
      ),
    ).not.toThrow();
  });

  test('refuses a root that is not a plain object', () => {
    for (const schema of [undefined, null, true, [], 'object']) {
      const error = thrown(() => assertMcpInputSchema(schema, where));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toStartWith(`${where} must be a JSON Schema object, got `);
    }
  });

  test('refuses a root whose type is not "object"', () => {
    for (const schema of [{}, { type: 'string' }, { type: ['object', 'null'] }]) {
      expect(() => assertMcpInputSchema(schema, where)).toThrow(
        new TypeError(`${where} must have "type": "object" at its root, as MCP requires`),
      );
    }
  });

  test('refuses wrong shapes of enforced keywords with the schema path', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ required: 'query' }, `${where}.required must be an array, got string`],
      [{ required: ['a', 1] }, `${where}.required[1] must be a property name string`],
      [{ required: ['a', 'a'] }, `${where}.required must not repeat the name "a"`],
      [{ properties: [] }, `${where}.properties must be an object of schemas, got array`],
      [
        { properties: { q: 5 } },
        `${where}.properties.q must be a JSON Schema (an object or a boolean), got number`,
      ],
      [
        { properties: { q: { minLength: -1 } } },
        `${where}.properties.q.minLength must be a non-negative integer`,
      ],
      [
        { properties: { q: { maxLength: 1.5 } } },
        `${where}.properties.q.maxLength must be a non-negative integer`,
      ],
      [{ minProperties: '1' }, `${where}.minProperties must be a non-negative integer`],
      [
        { properties: { 'odd key': { minimum: '1' } } },
        `${where}.properties["odd key"].minimum must be a finite number (JSON Schema 2020-12), got string`,
      ],
      [
        { properties: { n: { exclusiveMinimum: true } } },
        `${where}.properties.n.exclusiveMinimum must be a finite number (JSON Schema 2020-12), got boolean`,
      ],
      [
        { properties: { n: { multipleOf: 0 } } },
        `${where}.properties.n.multipleOf must be a number greater than 0`,
      ],
      [{ properties: { n: { type: 'float' } } }, `${where}.properties.n.type must name known types`],
      [
        { properties: { n: { type: [] } } },
        `${where}.properties.n.type must be a type name or a non-empty array`,
      ],
      [
        { properties: { n: { type: ['string', 'string'] } } },
        `${where}.properties.n.type must not repeat the type`,
      ],
      [{ properties: { n: { enum: 'a' } } }, `${where}.properties.n.enum must be an array, got string`],
      [{ properties: { n: { uniqueItems: 'yes' } } }, `${where}.properties.n.uniqueItems must be a boolean`],
      [{ properties: { n: { items: 'string' } } }, `${where}.properties.n.items must be a JSON Schema`],
      [
        { properties: { n: { prefixItems: {} } } },
        `${where}.properties.n.prefixItems must be an array of schemas`,
      ],
      [
        { properties: { n: { prefixItems: [{}, null] } } },
        `${where}.properties.n.prefixItems[1] must be a JSON Schema`,
      ],
      [{ additionalProperties: 'no' }, `${where}.additionalProperties must be a JSON Schema`],
      [
        { additionalProperties: { items: { maxItems: -2 } } },
        `${where}.additionalProperties.items.maxItems must be a non-negative integer`,
      ],
    ];
    for (const [extra, message] of cases) {
      const error = thrown(() => assertMcpInputSchema({ type: 'object', ...extra }, where));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toStartWith(message);
    }
  });

  test('refuses a cyclic schema', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(() => assertMcpInputSchema(schema, where)).toThrow(
      `${where}.properties.self refers back to itself: a cyclic schema cannot be sent as JSON`,
    );
  });

  test('refuses a schema nested deeper than 64 levels and accepts 64', () => {
    const nest = (levels: number): Record<string, unknown> => {
      let schema: Record<string, unknown> = { type: 'object' };
      for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
      return schema;
    };
    expect(() => assertMcpInputSchema(nest(64), where)).not.toThrow();
    expect(() => assertMcpInputSchema(nest(65), where)).toThrow('is nested too deep (more than 64 levels)');
  });

  test('checks a shared subschema once, so a wide DAG stays fast, yet still counts its depth', () => {
    let level: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 60; i++) level = { type: 'object', properties: { a: level, b: level, c: level } };
    expect(() => assertMcpInputSchema(level, where)).not.toThrow();
    // The shared subtree is first met shallow, then again 10 levels deeper, past the limit.
    const deep: Record<string, unknown> = { type: 'object', properties: { first: level } };
    let chain: Record<string, unknown> = level;
    for (let i = 0; i < 10; i++) chain = { type: 'object', properties: { c: chain } };
    (deep.properties as Record<string, unknown>).second = chain;
    expect(() => assertMcpInputSchema(deep, where)).toThrow('is nested too deep');
  });

  test('applies to outputSchema with the caller-given prefix', () => {
    expect(() => assertMcpInputSchema({ type: 'array' }, 'tool "x": outputSchema')).toThrow(
      /^tool "x": outputSchema must have "type": "object"/,
    );
  });
});

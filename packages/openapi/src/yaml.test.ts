import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { openapiToYAML } from './yaml.ts';

const VERSIONS = ['1.2', '1.1'] as const;

/** Parses with the `yaml` package as the given YAML version, failing on any error or warning. */
function readBack(text: string, version: (typeof VERSIONS)[number]): unknown {
  const doc = parseDocument(text, { version });
  expect(doc.errors.map(String)).toEqual([]);
  expect(doc.warnings.map(String)).toEqual([]);
  return doc.toJS();
}

/** The value the JSON document would carry: what both YAML readings must give. */
function jsonValue(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function expectRoundTrip(value: unknown): string {
  const text = openapiToYAML(value);
  for (const version of VERSIONS) expect(readBack(text, version)).toEqual(jsonValue(value));
  return text;
}

/** Strings that a careless writer leaves plain and a YAML parser then reads as something else (or fails on). */
const AWKWARD_STRINGS: readonly (readonly [string, string])[] = [
  ['empty', ''],
  ['yes', 'yes'],
  ['No', 'No'],
  ['ON', 'ON'],
  ['off', 'off'],
  ['y', 'y'],
  ['N', 'N'],
  ['true', 'true'],
  ['False', 'False'],
  ['tRuE (odd case)', 'tRuE'],
  ['null', 'null'],
  ['NULL', 'NULL'],
  ['tilde', '~'],
  ['integer', '42'],
  ['negative integer', '-7'],
  ['signed integer', '+1'],
  ['leading zero (1.1 octal)', '0755'],
  ['octal 1.2', '0o7'],
  ['hex', '0x1F'],
  ['binary (1.1)', '0b101'],
  ['underscored (1.1)', '1_000'],
  ['float', '3.14'],
  ['exponent', '1e3'],
  ['leading dot', '.5'],
  ['trailing dot', '5.'],
  ['infinity', '.inf'],
  ['negative infinity', '-.Inf'],
  ['nan', '.NaN'],
  ['sexagesimal (1.1)', '1:30'],
  ['sexagesimal float (1.1)', '190:20:30.15'],
  ['date', '2024-01-01'],
  ['timestamp', '2001-12-14t21:59:43.10-05:00'],
  ['status code', '200'],
  ['leading space', ' padded'],
  ['trailing space', 'padded '],
  ['only spaces', '   '],
  ['leading tab', '\tx'],
  ['trailing tab', 'x\t'],
  ['dash', '-'],
  ['dash space', '- item'],
  ['question', '? key'],
  ['colon', ':'],
  ['colon space inside', 'key: value'],
  ['trailing colon', 'key:'],
  ['hash start', '#/components/schemas/User'],
  ['space hash inside', 'a #comment'],
  ['comma start', ',x'],
  ['brackets', '[a, b]'],
  ['braces', '{a: b}'],
  ['close bracket', ']x'],
  ['anchor', '&anchor'],
  ['alias', '*alias'],
  ['tag', '!tag'],
  ['pipe', '|'],
  ['folded', '> text'],
  ['single quote start', "'quoted'"],
  ['double quote start', '"quoted"'],
  ['percent', '%YAML 1.2'],
  ['at', '@user'],
  ['backtick', '`code`'],
  ['merge key (1.1)', '<<'],
  ['equals (1.1 value key)', '='],
  ['document start', '---'],
  ['document end', '...'],
  ['document start with text', '--- x'],
  ['newline', 'a\nb'],
  ['trailing newline', 'a\n'],
  ['only newline', '\n'],
  ['carriage return', 'a\r\nb'],
  ['bare exponent (yaml 1.1 float)', 'e0'],
  ['signed bare exponent', 'E+12'],
  ['no-break space edges', '\u00a0x\u00a0'],
  ['line separator', 'a\u2028b'],
  ['next line (1.1 break)', 'a\u0085b'],
  ['byte order mark', '\ufeffx'],
  ['nul', 'a\u0000b'],
  ['escape', '\u001b[0m'],
  ['delete', '\u007f'],
  ['C1 control', '\u0090'],
  ['noncharacter', '\uffff'],
];

describe('openapiToYAML', () => {
  test('writes block style with two-space indentation, keys in insertion order and a final newline', () => {
    const text = openapiToYAML({
      zeta: 1,
      alpha: { list: ['a', { b: true, c: null }], empty: {} },
      none: [],
    });
    expect(text).toBe(
      [
        'zeta: 1',
        'alpha:',
        '  list:',
        '    - a',
        '    - b: true',
        '      c: null',
        '  empty: {}',
        'none: []',
        '',
      ].join('\n'),
    );
  });

  test('writes provably safe strings and keys plain', () => {
    const doc = {
      '/users/{id}': 'application/json',
      $ref: 'hello world',
      'x-a:b': 'c#d',
      café: '日本語 🎉',
      it: "it's",
      path: '/a/b?c=d&e[]=f',
      win: 'C:\\path\\to',
      quotes: `it's "quoted"`,
      e: 'e1x',
    };
    expect(openapiToYAML(doc)).toBe(
      [
        '/users/{id}: application/json',
        '$ref: hello world',
        'x-a:b: c#d',
        'café: 日本語 🎉',
        "it: it's",
        'path: /a/b?c=d&e[]=f',
        'win: C:\\path\\to',
        'quotes: it\'s "quoted"',
        'e: e1x',
        '',
      ].join('\n'),
    );
    expectRoundTrip(doc);
  });

  test('quotes strings that need no escape in single quotes, doubling the quote character', () => {
    expect(openapiToYAML({ a: "'yes'" })).toBe("a: '''yes'''\n");
    expect(openapiToYAML({ $ref: '#/components/schemas/User' })).toBe("$ref: '#/components/schemas/User'\n");
    expect(openapiToYAML({ '200': 'OK' })).toBe("'200': OK\n");
  });

  describe('awkward strings round trip as values, keys, sequence items and whole documents', () => {
    for (const [name, value] of AWKWARD_STRINGS) {
      test(`${name}: ${JSON.stringify(value)}`, () => {
        expectRoundTrip(value);
        expectRoundTrip({ value });
        expectRoundTrip({ [value]: value });
        expectRoundTrip([value, [value], { [value]: [value] }]);
        // None of these may be written as the bare string.
        expect(openapiToYAML({ k: value })).not.toBe(`k: ${value}\n`);
      });
    }
  });

  test('writes multi-line text as a literal block with the chomping indicator its final newlines need', () => {
    expect(openapiToYAML({ d: 'one\ntwo' })).toBe('d: |-\n  one\n  two\n');
    expect(openapiToYAML({ d: 'one\ntwo\n' })).toBe('d: |\n  one\n  two\n');
    expect(openapiToYAML({ d: 'one\n\n  two\n\n\n' })).toBe('d: |+\n  one\n\n    two\n\n\n');
    expect(openapiToYAML(['# Title\n\n---\n...\nkey: value #x'])).toBe(
      '- |-\n  # Title\n\n  ---\n  ...\n  key: value #x\n',
    );
  });

  test('keeps exact multi-line text whatever surrounds it', () => {
    const texts = [
      'one\n\n  two\n\n\n',
      'a\n  ',
      'a\n\t',
      'a\n\tb\n',
      'a \nb  \n',
      'a\n   \nb',
      'last\n\n',
      'x\n- y\n? z',
    ];
    for (const text of texts) {
      expectRoundTrip({ text, after: 1 });
      expectRoundTrip([text, [text], { text }]);
      expectRoundTrip({ deep: { deeper: [{ text }] } });
    }
  });

  test('double-quotes multi-line text a literal block cannot reproduce', () => {
    // Leading space or newline would change the block's detected indentation; `\r` is a line break.
    expect(openapiToYAML({ d: '  code\nmore' })).toBe('d: "  code\\nmore"\n');
    expect(openapiToYAML({ d: '\nlead' })).toBe('d: "\\nlead"\n');
    expect(openapiToYAML({ d: 'a\r\nb' })).toBe('d: "a\\r\\nb"\n');
    // At the top level a literal block's lines would start at column 0, where `---` is a document marker.
    expect(openapiToYAML('a\n---\nb')).toBe('"a\\n---\\nb"\n');
  });

  test('escapes control characters, YAML 1.1 line breaks, the byte order mark and lone surrogates', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['\u0000', '"\\0"'],
      ['\u0007', '"\\a"'],
      ['\t', '"\\t"'],
      ['\u0001', '"\\x01"'],
      ['\u001b', '"\\e"'],
      ['\u007f', '"\\x7F"'],
      ['\u0085', '"\\N"'],
      ['\u0090', '"\\x90"'],
      ['\u2028', '"\\L"'],
      ['\u2029', '"\\P"'],
      ['\ufeff', '"\\uFEFF"'],
      ['\ufffe', '"\\uFFFE"'],
      ['\ud800', '"\\uD800"'],
      ['x\udc00y', '"x\\uDC00y"'],
      ['"\\\u0001', '"\\"\\\\\\x01"'],
    ];
    for (const [value, written] of cases) {
      expect(openapiToYAML({ v: value })).toBe(`v: ${written}\n`);
      for (const version of VERSIONS) expect(readBack(`v: ${written}\n`, version)).toEqual({ v: value });
    }
  });

  test('round-trips unicode, emoji and astral characters unescaped', () => {
    const doc = {
      ключ: 'значение',
      emoji: '👩‍👩‍👧 🏳️‍🌈',
      math: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
      mixed: ' 中文: #tag ',
      nbsp: 'a\u00a0b',
    };
    const text = expectRoundTrip(doc);
    expect(text).toContain('emoji: 👩‍👩‍👧 🏳️‍🌈\n');
    expect(text).toContain("mixed: ' 中文: #tag '\n");
  });

  test('writes numbers both YAML versions read as the same double, and -0 as 0 like JSON', () => {
    const numbers = [
      0,
      -0,
      1,
      -1,
      0.1,
      -2.5,
      1e21,
      1.5e-7,
      -1e-7,
      1e300,
      5e-324,
      Number.MAX_VALUE,
      2 ** 53 + 2,
    ];
    expectRoundTrip(numbers);
    expect(openapiToYAML([1e21, 1.5e-7, -0, 100])).toBe('- 1.0e+21\n- 1.5e-7\n- 0\n- 100\n');
  });

  test('nests arrays of objects, objects in arrays of arrays and empty containers', () => {
    const doc = {
      a: [{ x: 1, y: [1, 2] }, { z: { w: [] } }],
      b: [[{ deep: [[[]], [{}]] }], [[1, [2, [3]]]]],
      c: [{}, [], '', [{ '': '' }]],
      d: { '': {}, ' ': [] },
    };
    const text = expectRoundTrip(doc);
    expect(text).toContain('  - - - 1\n');
    expectRoundTrip([[[]]]);
  });

  test('writes empty containers and scalars at the top level', () => {
    expect(openapiToYAML({})).toBe('{}\n');
    expect(openapiToYAML([])).toBe('[]\n');
    expect(openapiToYAML(null)).toBe('null\n');
    expect(openapiToYAML('text')).toBe('text\n');
    expect(openapiToYAML('')).toBe("''\n");
    expect(openapiToYAML(false)).toBe('false\n');
    for (const value of [{}, [], null, 'text', '', false, 12, 'yes', 'a\nb']) expectRoundTrip(value);
  });

  test('writes keys over the implicit-key limit in the explicit form', () => {
    const long = 'k'.repeat(1100);
    const quoted = `#${'q'.repeat(1100)}`;
    const doc = { [long]: 'v', [quoted]: { nested: [1] }, list: [{ [long]: 'a\nb', short: 1 }] };
    const text = expectRoundTrip(doc);
    expect(text.startsWith(`? ${long}\n: v\n? '${quoted}'\n:\n  nested:\n`)).toBe(true);
    // Just under the limit stays implicit.
    expect(openapiToYAML({ ['s'.repeat(1000)]: 1 })).toBe(`${'s'.repeat(1000)}: 1\n`);
  });

  test('skips undefined object members as JSON.stringify does', () => {
    expect(openapiToYAML({ a: undefined, b: 1 })).toBe('b: 1\n');
    expect(openapiToYAML({ a: undefined })).toBe('{}\n');
  });

  test('honours toJSON and unwraps boxed primitives as JSON.stringify does', () => {
    const doc = {
      when: new Date('2024-01-01T00:00:00.000Z'),
      custom: { toJSON: (key: string) => ({ key }) },
      boxed: [new String('yes'), new Number(3), new Boolean(false)],
    };
    const text = expectRoundTrip(doc);
    expect(text).toContain("when: '2024-01-01T00:00:00.000Z'\n");
    expect(text).toContain('custom:\n  key: custom\n');
  });

  test('writes a shared (acyclic) object at each place it appears', () => {
    const shared = { type: 'string' };
    expect(expectRoundTrip({ a: shared, b: [shared, shared] })).toBe(
      'a:\n  type: string\nb:\n  - type: string\n  - type: string\n',
    );
  });

  test('round-trips a realistic OpenAPI document', () => {
    const doc = {
      openapi: '3.1.0',
      info: {
        title: 'Pet Store',
        version: '1.0.0',
        description: '# Pets\n\nA store.\n\n```yaml\nkey: value\n```\n',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: 'https://api.example.com/v1', description: 'Production' }],
      paths: {
        '/pets/{petId}': {
          get: {
            operationId: 'getPet',
            tags: ['pets'],
            parameters: [
              { name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
            ],
            responses: {
              '200': {
                description: 'A pet',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
              default: {
                description: 'Problem',
                content: {
                  'application/problem+json': {
                    schema: { $ref: '#/components/schemas/Problem' },
                    example: {
                      type: 'https://charter.dev/errors/not-found',
                      status: 404,
                      title: 'Not Found',
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: {
            type: 'object',
            required: ['id', 'name'],
            properties: {
              id: { type: 'integer', format: 'int64' },
              name: { type: 'string', pattern: '^[a-z]+: .*$', default: 'no' },
              tag: { type: ['string', 'null'], enum: ['yes', 'no', null, '1.0', 'on'] },
              weight: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.01 },
            },
            additionalProperties: false,
          },
          Problem: { type: 'object', properties: {} },
        },
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    };
    const text = expectRoundTrip(doc);
    expect(text).toContain("      responses:\n        '200':\n          description: A pet\n");
    expect(text).toContain('  description: |\n    # Pets\n\n    A store.\n');
  });

  describe('refusals', () => {
    const cases: readonly (readonly [string, () => unknown, string])[] = [
      ['undefined in an array', () => ({ tags: ['a', undefined] }), '$.tags[1]'],
      ['undefined at the top level', () => undefined, '$'],
      ['a function member', () => ({ paths: { '/x': { get: () => 1 } } }), '$.paths["/x"].get'],
      ['a function in an array', () => [() => 1], '$[0]'],
      ['a symbol', () => ({ a: Symbol('s') }), '$.a'],
      ['a bigint', () => ({ big: 10n }), '$.big'],
      ['NaN', () => ({ n: Number.NaN }), '$.n'],
      ['Infinity', () => ({ list: [1, Number.POSITIVE_INFINITY] }), '$.list[1]'],
      ['-Infinity', () => ({ 'a b': Number.NEGATIVE_INFINITY }), '$["a b"]'],
      [
        'an object cycle',
        () => {
          const c: Record<string, unknown> = {};
          const a = { b: { c } };
          c.back = a;
          return a;
        },
        '$.b.c.back',
      ],
      [
        'an array cycle',
        () => {
          const list: unknown[] = [1];
          list.push({ list });
          return list;
        },
        '$[1].list',
      ],
    ];
    for (const [name, make, path] of cases) {
      test(`throws a TypeError naming the path for ${name}`, () => {
        const value = make();
        expect(() => openapiToYAML(value)).toThrow(TypeError);
        expect(() => openapiToYAML(value)).toThrow(` at ${path}`);
      });
    }
  });

  describe('properties', () => {
    test('any JSON value round-trips exactly', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          expectRoundTrip(value);
        }),
        { numRuns: 400 },
      );
    });

    test('any JSON value with arbitrary code points in its strings and keys round-trips exactly', () => {
      fc.assert(
        fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.string({ unit: 'binary' }), (value, text) => {
          expectRoundTrip(value);
          expectRoundTrip({ [text]: [text, { text }] });
        }),
        { numRuns: 400 },
      );
    });

    test('any finite double round-trips to the same number in both YAML versions', () => {
      fc.assert(
        fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
          expectRoundTrip([n, { n }]);
        }),
        { numRuns: 1000 },
      );
    });

    test('strings built from YAML-significant characters round-trip exactly', () => {
      const unit = fc.constantFrom(
        ...[
          ' ',
          ' ',
          '\n',
          '\n',
          '\t',
          '\r',
          ':',
          '#',
          '-',
          '?',
          ',',
          '[',
          '{',
          '}',
          "'",
          '"',
          '\\',
          '|',
          '>',
        ],
        ...[
          '!',
          '&',
          '*',
          '%',
          '@',
          '`',
          '.',
          '0',
          '1',
          'e',
          '+',
          '_',
          'x',
          'y',
          'n',
          'o',
          'a',
          '~',
          '<',
          '=',
        ],
        ...['\u0085', '\u00a0', '\u2028', '\ufeff', '\u0000', '🎉', 'é'],
      );
      const awkward = fc.string({ unit, maxLength: 12 });
      fc.assert(
        fc.property(awkward, awkward, (key, value) => {
          expectRoundTrip(value);
          expectRoundTrip({ [key]: value, after: [value, { [value]: key }] });
        }),
        { numRuns: 1000 },
      );
    });
  });
});

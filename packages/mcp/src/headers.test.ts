import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  checkMcpParamHeaders,
  collectMcpHeaderParams,
  decodeMcpHeaderValue,
  encodeMcpHeaderValue,
  type McpHeaderParam,
  mirrorsValue,
} from './headers.ts';

/** The sentinel built independently of the code under test (Node's Buffer codec). */
function sentinel(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

function isWireSafe(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !value.startsWith(' ') && !value.endsWith(' ');
}

describe('encodeMcpHeaderValue', () => {
  test('leaves visible ASCII, inner spaces and the empty string as they are', () => {
    for (const value of ['us-west1', 'us west 1', '', 'SGVsbG8=', 'a?=', '=?base64', 'x=?base64?y?=']) {
      expect(encodeMcpHeaderValue(value)).toBe(value);
    }
  });

  test('wraps leading or trailing spaces, non-ASCII and control characters in the Base64 sentinel', () => {
    for (const value of [
      ' padded ',
      ' us-west1',
      'us-west1 ',
      'café',
      'Hello, 世界',
      '🚀 launch',
      'line1\nline2',
    ]) {
      expect(encodeMcpHeaderValue(value)).toBe(sentinel(value));
    }
    for (const value of ['line1\r\nline2', '\tindented', 'a\tb', 'del\u007f', '\u0000', 'nbsp\u00a0']) {
      expect(encodeMcpHeaderValue(value)).toBe(sentinel(value));
    }
  });

  test('wraps a value that itself looks like the sentinel, whatever the case of its prefix', () => {
    expect(encodeMcpHeaderValue('=?base64?SGVsbG8=?=')).toBe(sentinel('=?base64?SGVsbG8=?='));
    expect(encodeMcpHeaderValue('=?base64?SGVsbG8=')).toBe(sentinel('=?base64?SGVsbG8='));
    expect(encodeMcpHeaderValue('=?BASE64?SGVsbG8=?=')).toBe(sentinel('=?BASE64?SGVsbG8=?='));
    expect(encodeMcpHeaderValue('=?Base64?')).toBe(sentinel('=?Base64?'));
  });

  test('pads the Base64 text to a multiple of four characters', () => {
    expect(encodeMcpHeaderValue('é')).toBe('=?base64?w6k=?=');
    expect(encodeMcpHeaderValue(' a')).toBe('=?base64?IGE=?=');
    expect(encodeMcpHeaderValue(' ab')).toBe('=?base64?IGFi?=');
    expect(encodeMcpHeaderValue(' ')).toBe('=?base64?IA==?=');
  });

  test('replaces a lone surrogate with U+FFFD, since UTF-8 cannot carry it', () => {
    expect(decodeMcpHeaderValue(encodeMcpHeaderValue('a\ud800b'))).toBe('a\ufffdb');
  });
});

describe('decodeMcpHeaderValue', () => {
  test('returns a plain value as it is', () => {
    for (const value of ['us-west1', 'us west 1', '', 'SGVsbG8=', '=?base64?', '=?base64?=']) {
      expect(decodeMcpHeaderValue(value)).toBe(value);
    }
  });

  test('decodes the sentinel to its UTF-8 text, the empty sentinel included', () => {
    expect(decodeMcpHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeMcpHeaderValue(sentinel('Hello, 世界'))).toBe('Hello, 世界');
    expect(decodeMcpHeaderValue(sentinel('🚀'))).toBe('🚀');
    expect(decodeMcpHeaderValue('=?base64??=')).toBe('');
  });

  test('treats a value missing the prefix, the suffix, or with an upper-case prefix as a literal', () => {
    expect(decodeMcpHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeMcpHeaderValue('SGVsbG8=?=')).toBe('SGVsbG8=?=');
    expect(decodeMcpHeaderValue('=?BASE64?SGVsbG8=?=')).toBe('=?BASE64?SGVsbG8=?=');
    expect(decodeMcpHeaderValue(' =?base64?SGVsbG8=?=')).toBeUndefined();
  });

  test('refuses a sentinel with missing padding, foreign characters or non-zero pad bits', () => {
    for (const raw of [
      '=?base64?SGVsbG8?=',
      '=?base64?SGVs!!!bG8=?=',
      '=?base64?SGVs bG8=?=',
      '=?base64?-_8=?=',
      '=?base64?SGVsbG9=?=',
      '=?base64?SGVsbG8==?=',
      '=?base64?S?=',
      '=?base64?=SGVsbG8?=',
    ]) {
      expect(decodeMcpHeaderValue(raw)).toBeUndefined();
    }
  });

  test('refuses a sentinel whose bytes are not valid UTF-8', () => {
    expect(decodeMcpHeaderValue('=?base64?/w==?=')).toBeUndefined(); // 0xFF
    expect(decodeMcpHeaderValue('=?base64?7aCA?=')).toBeUndefined(); // ED A0 80: an encoded surrogate
    expect(decodeMcpHeaderValue('=?base64?wK8=?=')).toBeUndefined(); // C0 AF: overlong '/'
    expect(decodeMcpHeaderValue('=?base64?4oI=?=')).toBeUndefined(); // E2 82: truncated sequence
  });

  test('refuses raw control characters, non-ASCII and surrounding spaces', () => {
    for (const raw of ['line1\nline2', 'a\tb', '\u0001', 'del\u007f', 'café', '世界', ' a', 'a ']) {
      expect(decodeMcpHeaderValue(raw)).toBeUndefined();
    }
  });

  test('keeps a leading U+FEFF instead of dropping it as a byte-order mark', () => {
    expect(decodeMcpHeaderValue(encodeMcpHeaderValue('\ufeffx'))).toBe('\ufeffx');
  });

  test('round-trips any well-formed string through the encoder, which emits only wire-safe characters', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.string(),
      fc.string().map((s) => ` ${s} `),
      fc.tuple(fc.constantFrom('=?base64?', '=?BASE64?', '=?Base64?'), fc.string()).map(([p, s]) => p + s),
      fc.string({ unit: 'binary' }).map((s) => `=?base64?${s}?=`),
    );
    fc.assert(
      fc.property(text, (s) => {
        const encoded = encodeMcpHeaderValue(s);
        expect(isWireSafe(encoded)).toBe(true);
        expect(decodeMcpHeaderValue(encoded)).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('mirrorsValue', () => {
  test('accepts a header equal to the value, plain or Base64-encoded', () => {
    expect(mirrorsValue('search_docs', 'search_docs')).toBe(true);
    expect(mirrorsValue(sentinel('search_docs'), 'search_docs')).toBe(true);
    expect(mirrorsValue(encodeMcpHeaderValue('résumé'), 'résumé')).toBe(true);
    expect(mirrorsValue(encodeMcpHeaderValue('file:///a b.txt'), 'file:///a b.txt')).toBe(true);
  });

  test('accepts a value surrounded by whitespace, which Headers strips (RFC 9110 §5.5)', () => {
    const headers = new Headers({ 'Mcp-Name': '  search_docs  ' });
    expect(mirrorsValue(headers.get('mcp-name'), 'search_docs')).toBe(true);
  });

  test('refuses a missing, different, differently cased or malformed header', () => {
    expect(mirrorsValue(null, 'search_docs')).toBe(false);
    expect(mirrorsValue('wrong_tool_name', 'search_docs')).toBe(false);
    expect(mirrorsValue('Search_Docs', 'search_docs')).toBe(false);
    expect(mirrorsValue('=?base64?SGVsbG8?=', 'Hello')).toBe(false);
    expect(mirrorsValue('', 'search_docs')).toBe(false);
  });

  test('compares a literal that only resembles the sentinel as the literal itself', () => {
    expect(mirrorsValue('=?base64?SGVsbG8=', '=?base64?SGVsbG8=')).toBe(true);
    expect(mirrorsValue('=?base64?SGVsbG8=?=', '=?base64?SGVsbG8=?=')).toBe(false);
  });
});

const WHERE = 'tool "t"';

function refusal(schema: Record<string, unknown>): string {
  try {
    collectMcpHeaderParams(schema, WHERE);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    const message = (error as TypeError).message;
    expect(message.startsWith(`${WHERE}: `)).toBe(true);
    return message;
  }
  throw new Error('expected collectMcpHeaderParams to refuse the schema');
}

function objectWith(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties };
}

describe('collectMcpHeaderParams', () => {
  test('collects annotated properties at the root and through nested properties', () => {
    const params = collectMcpHeaderParams(
      objectWith({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority', minimum: -1e300, maximum: 2 ** 60 },
        verbose: { type: 'boolean', 'x-mcp-header': 'X-Verbose.v1' },
        query: { type: 'string' },
        filter: objectWith({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
      }),
      WHERE,
    );
    expect(params).toEqual([
      { header: 'Region', lower: 'region', path: ['region'], type: 'string' },
      { header: 'Priority', lower: 'priority', path: ['priority'], type: 'integer' },
      { header: 'X-Verbose.v1', lower: 'x-verbose.v1', path: ['verbose'], type: 'boolean' },
      { header: 'Zone', lower: 'zone', path: ['filter', 'zone'], type: 'string' },
    ]);
    expect(Object.isFrozen(params)).toBe(true);
    expect(Object.isFrozen(params[0])).toBe(true);
  });

  test('returns nothing for a schema without annotations, and ignores look-alike keys in data', () => {
    expect(collectMcpHeaderParams({ type: 'object' }, WHERE)).toEqual([]);
    const params = collectMcpHeaderParams(
      objectWith({
        'x-mcp-header': { type: 'string' },
        config: {
          type: 'object',
          default: { 'x-mcp-header': 'Default' },
          const: { 'x-mcp-header': 'Const' },
          enum: [{ 'x-mcp-header': 'Enum' }],
          examples: [{ 'x-mcp-header': 'Example' }],
        },
      }),
      WHERE,
    );
    expect(params).toEqual([]);
  });

  test('refuses an annotation that is not a non-empty RFC 9110 token', () => {
    for (const header of ['', 'My Region', 'Region:Primary', 'Région', 'Region\t1', 'a/b', 'a"b', 42, null]) {
      const message = refusal(objectWith({ value: { type: 'string', 'x-mcp-header': header } }));
      expect(message).toContain('non-empty RFC 9110 token');
      expect(message).toContain('/properties/value');
    }
  });

  test('refuses two annotations equal ignoring case', () => {
    for (const [a, b] of [
      ['Region', 'Region'],
      ['MyField', 'myfield'],
    ] as const) {
      const message = refusal(
        objectWith({
          field1: { type: 'string', 'x-mcp-header': a },
          nested: objectWith({ field2: { type: 'string', 'x-mcp-header': b } }),
        }),
      );
      expect(message).toContain('duplicates the one at /properties/field1');
    }
  });

  test('refuses a property whose type is not exactly string, integer or boolean', () => {
    for (const type of ['number', 'object', 'array', 'null', ['string', 'null'], ['integer'], undefined]) {
      const property: Record<string, unknown> = { 'x-mcp-header': 'Value' };
      if (type !== undefined) property.type = type;
      const message = refusal(objectWith({ value: property }));
      expect(message).toContain('needs "type" to be exactly "string", "integer" or "boolean"');
    }
  });

  test('refuses an annotation on the root schema itself', () => {
    expect(refusal({ type: 'string', 'x-mcp-header': 'Root' })).toContain('at / must sit on a property');
  });

  test('refuses an annotation reached through anything but properties chains', () => {
    const annotated = { type: 'string', 'x-mcp-header': 'Hidden' };
    const cases: [Record<string, unknown>, string][] = [
      [objectWith({ tags: { type: 'array', items: annotated } }), '/properties/tags/items'],
      [objectWith({ tags: { type: 'array', items: [annotated] } }), '/properties/tags/items/0'],
      [objectWith({ tags: { type: 'array', prefixItems: [annotated] } }), '/properties/tags/prefixItems/0'],
      [objectWith({ tags: { type: 'array', contains: annotated } }), '/properties/tags/contains'],
      [{ ...objectWith({}), allOf: [objectWith({ a: annotated })] }, '/allOf/0/properties/a'],
      [{ ...objectWith({}), anyOf: [annotated] }, '/anyOf/0'],
      [objectWith({ a: { oneOf: [annotated] } }), '/properties/a/oneOf/0'],
      [objectWith({ a: { type: 'string', not: annotated } }), '/properties/a/not'],
      [{ if: annotated }, '/if'],
      [{ then: objectWith({ a: annotated }) }, '/then/properties/a'],
      [{ else: annotated }, '/else'],
      [{ $defs: { region: annotated } }, '/$defs/region'],
      [{ definitions: { region: annotated } }, '/definitions/region'],
      [{ additionalProperties: annotated }, '/additionalProperties'],
      [{ unevaluatedProperties: annotated }, '/unevaluatedProperties'],
      [{ patternProperties: { '^r': annotated } }, '/patternProperties/^r'],
      [{ dependentSchemas: { a: objectWith({ b: annotated }) } }, '/dependentSchemas/a/properties/b'],
      [{ propertyNames: annotated }, '/propertyNames'],
      [
        objectWith({ list: { type: 'array', items: objectWith({ x: annotated }) } }),
        '/properties/list/items/properties/x',
      ],
      [objectWith({ 'a/b~c': { type: 'array', items: annotated } }), '/properties/a~1b~0c/items'],
    ];
    for (const [schema, pointer] of cases) {
      expect(refusal(schema)).toContain(
        `"x-mcp-header" at ${pointer} must sit on a property reached from the root`,
      );
    }
  });

  test('refuses a schema object that contains itself', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { self: schema };
    expect(refusal(schema)).toContain('refers to itself at /properties/self');
  });

  test('accepts the same subschema object reused in two places that are not nested', () => {
    const shared = { type: 'string' };
    expect(collectMcpHeaderParams(objectWith({ a: shared, b: shared }), WHERE)).toEqual([]);
  });
});

const SCHEMA = objectWith({
  region: { type: 'string', 'x-mcp-header': 'Region' },
  priority: { type: 'integer', 'x-mcp-header': 'Priority' },
  verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
  filter: objectWith({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
  query: { type: 'string' },
});
const PARAMS: readonly McpHeaderParam[] = collectMcpHeaderParams(SCHEMA, WHERE);
const ARGS = { region: 'us-west1', priority: 42, verbose: false, filter: { zone: 'a' }, query: 'SELECT 1' };
const HEADERS = {
  'Mcp-Param-Region': 'us-west1',
  'Mcp-Param-Priority': '42',
  'Mcp-Param-Verbose': 'false',
  'Mcp-Param-Zone': 'a',
};

function check(headers: Record<string, string>, args: unknown = ARGS): string | undefined {
  return checkMcpParamHeaders(new Headers(headers), PARAMS, args);
}

function only(param: string, raw: string | undefined, value: unknown): string | undefined {
  const params = PARAMS.filter((p) => p.header === param);
  const headers = new Headers(raw === undefined ? {} : { [`Mcp-Param-${param}`]: raw });
  const key = params[0]?.path[0] as string;
  return checkMcpParamHeaders(headers, params, { [key]: value });
}

describe('checkMcpParamHeaders', () => {
  test('accepts headers that mirror every annotated argument', () => {
    expect(check(HEADERS)).toBeUndefined();
  });

  test('not required (legacy era): missing headers pass, but every header sent must agree', () => {
    const legacy = (headers: Record<string, string>, args: unknown = ARGS) =>
      checkMcpParamHeaders(new Headers(headers), PARAMS, args, false);
    expect(legacy({})).toBeUndefined();
    expect(legacy({ 'Mcp-Param-Region': 'us-west1' })).toBeUndefined();
    expect(legacy(HEADERS)).toBeUndefined();
    expect(legacy({ 'Mcp-Param-Region': 'eu-west1' })).toBe(
      'The Mcp-Param-Region header does not match the argument it mirrors.',
    );
    expect(legacy({ 'Mcp-Param-Priority': '43' })).toBe(
      'The Mcp-Param-Priority header does not match the argument it mirrors.',
    );
    expect(legacy({ 'Mcp-Param-Verbose': 'TRUE' })).toBe(
      'The Mcp-Param-Verbose header must be "true" or "false".',
    );
    expect(legacy({ 'Mcp-Param-Zone': '=?base64?YQ?=' })).toContain('malformed Base64 sentinel');
    expect(legacy({ 'Mcp-Param-Verbose': 'false' }, { region: 'us-west1' })).toBe(
      'The Mcp-Param-Verbose header is present but the argument it mirrors is absent or null.',
    );
    // Required (modern era), the same missing header is a problem.
    expect(checkMcpParamHeaders(new Headers({}), PARAMS, ARGS, true)).toBe(
      'The Mcp-Param-Region header is missing but the arguments carry the value it mirrors.',
    );
  });

  test('accepts header names in any case', () => {
    const lower = Object.fromEntries(Object.entries(HEADERS).map(([k, v]) => [k.toLowerCase(), v]));
    expect(check(lower)).toBeUndefined();
    const upper = Object.fromEntries(Object.entries(HEADERS).map(([k, v]) => [k.toUpperCase(), v]));
    expect(check(upper)).toBeUndefined();
  });

  test('accepts no headers when the annotated arguments are absent or null', () => {
    expect(check({}, { query: 'x' })).toBeUndefined();
    expect(
      check({}, { region: null, priority: null, verbose: null, filter: { zone: null } }),
    ).toBeUndefined();
    expect(check({}, { filter: 'not an object' })).toBeUndefined();
    expect(check({}, { filter: [{ zone: 'a' }] })).toBeUndefined();
    expect(checkMcpParamHeaders(new Headers(), PARAMS, undefined)).toBeUndefined();
    expect(check({}, ['us-west1'])).toBeUndefined();
  });

  test('does not look arguments up through the prototype chain', () => {
    const params = collectMcpHeaderParams(
      objectWith({ constructor: { type: 'string', 'x-mcp-header': 'C' } }),
      WHERE,
    );
    expect(checkMcpParamHeaders(new Headers(), params, {})).toBeUndefined();
    expect(checkMcpParamHeaders(new Headers({ 'Mcp-Param-C': 'x' }), params, {})).toContain('absent or null');
  });

  test('reports a header sent for an absent or null argument', () => {
    expect(check(HEADERS, { ...ARGS, verbose: undefined })).toBe(
      'The Mcp-Param-Verbose header is present but the argument it mirrors is absent or null.',
    );
    expect(check(HEADERS, { ...ARGS, verbose: null })).toContain('Mcp-Param-Verbose header is present');
    expect(check(HEADERS, { ...ARGS, filter: 'zone-a' })).toContain('Mcp-Param-Zone header is present');
  });

  test('reports a header missing while the argument is present', () => {
    const { 'Mcp-Param-Region': _, ...rest } = HEADERS;
    expect(check(rest)).toBe(
      'The Mcp-Param-Region header is missing but the arguments carry the value it mirrors.',
    );
    expect(only('Region', undefined, '')).toContain('Mcp-Param-Region header is missing');
  });

  test('ignores Mcp-Param headers the tool does not declare', () => {
    expect(check({ ...HEADERS, 'Mcp-Param-Query': 'SELECT 1', 'Mcp-Param-Other': 'x' })).toBeUndefined();
  });

  test('reports the first problem in declaration order', () => {
    expect(check({ ...HEADERS, 'Mcp-Param-Region': 'eu', 'Mcp-Param-Zone': 'b' })).toContain(
      'Mcp-Param-Region',
    );
  });

  test('compares strings after decoding, accepting the sentinel and literals that resemble it', () => {
    expect(only('Region', sentinel('Hello'), 'Hello')).toBeUndefined();
    expect(only('Region', 'SGVsbG8=', 'SGVsbG8=')).toBeUndefined();
    expect(only('Region', '=?base64?SGVsbG8=', '=?base64?SGVsbG8=')).toBeUndefined();
    expect(only('Region', encodeMcpHeaderValue(' padded '), ' padded ')).toBeUndefined();
    expect(only('Region', encodeMcpHeaderValue('Hello, 世界'), 'Hello, 世界')).toBeUndefined();
    expect(only('Region', encodeMcpHeaderValue('line1\r\nline2'), 'line1\r\nline2')).toBeUndefined();
    expect(only('Region', '', '')).toBeUndefined();
  });

  test('reports a string mismatch without echoing either value', () => {
    const problem = only('Region', 'eu-central-secret', 'us-west1-secret');
    expect(problem).toBe('The Mcp-Param-Region header does not match the argument it mirrors.');
    expect(problem).not.toContain('secret');
    expect(only('Region', 'US-WEST1', 'us-west1')).toContain('does not match');
    expect(only('Region', '=?base64?SGVsbG8=?=', '=?base64?SGVsbG8=?=')).toContain('does not match');
  });

  test('reports a malformed sentinel or characters a plain header cannot carry', () => {
    const malformed =
      'The Mcp-Param-Region header value has characters a header cannot carry or a malformed Base64 sentinel.';
    expect(only('Region', '=?base64?SGVsbG8?=', 'Hello')).toBe(malformed);
    expect(only('Region', '=?base64?SGVs!!!bG8=?=', 'Hello')).toBe(malformed);
    expect(only('Region', '=?base64?/w==?=', 'Hello')).toBe(malformed);
    expect(only('Region', 'a\tb', 'a\tb')).toBe(malformed);
    expect(only('Region', 'a\u0001b', 'a\u0001b')).toBe(malformed);
    expect(only('Region', 'café', 'café')).toBe(malformed);
  });

  test('reports a string property whose argument is not a string', () => {
    expect(only('Region', '42', 42)).toBe(
      'The Mcp-Param-Region header mirrors a string property but the argument is not a string.',
    );
  });

  test('compares integers numerically from a strict decimal literal', () => {
    for (const raw of ['42', '42.0', '42.000', '4.2e1', '4.2E+1', '420e-1', '0.42e2', sentinel('42')]) {
      expect(only('Priority', raw, 42)).toBeUndefined();
    }
    expect(only('Priority', '-7', -7)).toBeUndefined();
    expect(only('Priority', '-0', 0)).toBeUndefined();
    expect(only('Priority', '0', -0)).toBeUndefined();
    expect(only('Priority', '0e99999', 0)).toBeUndefined();
    expect(only('Priority', '9007199254740991', 2 ** 53 - 1)).toBeUndefined();
    expect(only('Priority', '-9007199254740991', -(2 ** 53 - 1))).toBeUndefined();
  });

  test('reports an integer header that is not a decimal number literal', () => {
    for (const raw of [
      '0x2A',
      '+42',
      '042',
      '',
      '4 2',
      'Infinity',
      'NaN',
      '42.',
      '.5',
      '1e',
      '1e+',
      '--1',
      '42abc',
      sentinel('٤٢'),
    ]) {
      expect(only('Priority', raw, 42)).toBe('The Mcp-Param-Priority header must be a decimal number.');
    }
  });

  test('reports an integer header that denotes another number, exactly and without rounding', () => {
    for (const raw of [
      '43',
      '-42',
      '42.5',
      '4.25e1',
      '9007199254740990.9999999999',
      '1e999999999999999999999',
      '1e-400',
    ]) {
      const value = raw.startsWith('9007') ? 2 ** 53 - 1 : 42;
      expect(only('Priority', raw, value)).toBe(
        'The Mcp-Param-Priority header does not match the argument it mirrors.',
      );
    }
    expect(only('Priority', '9007199254740993', 2 ** 53 - 1)).toContain('does not match');
  });

  test('reports an integer property whose argument is not a safe integer', () => {
    for (const value of [3.5, 2 ** 53, -(2 ** 53), '42', Number.NaN, true]) {
      expect(only('Priority', '42', value)).toBe(
        'The Mcp-Param-Priority header mirrors an integer property but the argument is not an integer within ±(2^53−1).',
      );
    }
  });

  test('matches any safe integer against its decimal, fixed and exponent spellings, and not its neighbour', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        for (const raw of [String(n), n.toFixed(2), n.toExponential()]) {
          expect(only('Priority', raw, n)).toBeUndefined();
        }
        const other = n === Number.MAX_SAFE_INTEGER ? n - 1 : n + 1;
        expect(only('Priority', String(other), n)).toContain('does not match');
      }),
      { numRuns: 500 },
    );
  });

  test('accepts booleans spelled exactly true or false', () => {
    expect(only('Verbose', 'true', true)).toBeUndefined();
    expect(only('Verbose', 'false', false)).toBeUndefined();
    expect(only('Verbose', sentinel('true'), true)).toBeUndefined();
  });

  test('reports a boolean header with another spelling or the other value', () => {
    for (const raw of ['TRUE', 'True', '1', '0', 'yes', '']) {
      expect(only('Verbose', raw, true)).toBe('The Mcp-Param-Verbose header must be "true" or "false".');
    }
    expect(only('Verbose', 'true', false)).toBe(
      'The Mcp-Param-Verbose header does not match the argument it mirrors.',
    );
    expect(only('Verbose', 'false', true)).toContain('does not match');
  });

  test('reports a boolean property whose argument is not a boolean', () => {
    expect(only('Verbose', 'true', 'true')).toBe(
      'The Mcp-Param-Verbose header mirrors a boolean property but the argument is not a boolean.',
    );
  });

  test('follows nested property paths', () => {
    expect(check(HEADERS, { ...ARGS, filter: { zone: 'b' } })).toBe(
      'The Mcp-Param-Zone header does not match the argument it mirrors.',
    );
    const { 'Mcp-Param-Zone': _, ...rest } = HEADERS;
    expect(check(rest)).toContain('Mcp-Param-Zone header is missing');
    expect(check(rest, { ...ARGS, filter: {} })).toBeUndefined();
  });
});

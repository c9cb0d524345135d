import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { assertJsonObject, escapeHtml, hasControlCharacter, jsonForScript } from './html.ts';

describe('escapeHtml', () => {
  test('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('plain text é ✓')).toBe('plain text é ✓');
  });
});

describe('jsonForScript', () => {
  test('escapes <, >, &, U+2028 and U+2029 so nothing can end or comment out the script', () => {
    const text = jsonForScript({ a: '</script><!-- & \u2028\u2029 -->' });
    expect(text).toBe('{"a":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 --\\u003e"}');
  });

  test('reads back to the same value for any JSON, with none of the dangerous characters left', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = jsonForScript(value as never);
        for (const char of ['<', '>', '&', '\u2028', '\u2029']) expect(text.includes(char)).toBe(false);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  test('never lets a string end the script element, whatever it contains', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const json = jsonForScript({ text });
        expect(json.toLowerCase().includes('</script')).toBe(false);
        expect(json.includes('<!--')).toBe(false);
        expect((JSON.parse(json) as { text: string }).text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('assertJsonObject', () => {
  test('accepts plain JSON objects, null-prototype objects and undefined members', () => {
    expect(() =>
      assertJsonObject({ a: [1, 'x', null, true, { b: -0.5 }], c: undefined }, 'configuration'),
    ).not.toThrow();
    expect(() =>
      assertJsonObject(Object.assign(Object.create(null), { a: 1 }), 'configuration'),
    ).not.toThrow();
  });

  test('refuses what JSON would drop or change, naming the member', () => {
    expect(() => assertJsonObject({ hook: () => 1 }, 'configuration')).toThrow(
      'configuration.hook must be JSON (null, boolean, number, string, array or plain object), got a function',
    );
    expect(() => assertJsonObject({ n: Number.NaN }, 'configuration')).toThrow(
      'configuration.n must be a finite number',
    );
    expect(() => assertJsonObject({ big: 1n }, 'configuration')).toThrow('got a bigint');
    expect(() => assertJsonObject({ list: [undefined] }, 'configuration')).toThrow('configuration.list[0]');
    expect(() => assertJsonObject({ when: new Date(0) }, 'configuration')).toThrow('an instance of Date');
    expect(() => assertJsonObject({ s: Symbol('x') }, 'configuration')).toThrow('got a symbol');
  });

  test('refuses non-objects, arrays and cycles', () => {
    expect(() => assertJsonObject(null, 'configuration')).toThrow(
      'configuration must be a plain JSON object, got null',
    );
    expect(() => assertJsonObject([1], 'configuration')).toThrow('got an array');
    expect(() => assertJsonObject('x', 'configuration')).toThrow('got a string');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => assertJsonObject(cyclic, 'configuration')).toThrow('configuration.self refers to itself');
  });

  test('accepts the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(() => assertJsonObject({ x: shared, y: shared }, 'configuration')).not.toThrow();
  });

  test('refuses nesting deeper than 64 levels', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 70; i++) {
      const next = {};
      deep.n = next;
      deep = next;
    }
    expect(() => assertJsonObject(root, 'configuration')).toThrow('nests deeper than 64 levels');
  });
});

describe('hasControlCharacter', () => {
  test('finds C0, DEL and C1 controls and nothing else', () => {
    expect(hasControlCharacter('a\u0000b')).toBe(true);
    expect(hasControlCharacter('a\tb')).toBe(true);
    expect(hasControlCharacter('a\u007fb')).toBe(true);
    expect(hasControlCharacter('a\u0085b')).toBe(true);
    expect(hasControlCharacter('/openapi.json?x=é')).toBe(false);
  });
});

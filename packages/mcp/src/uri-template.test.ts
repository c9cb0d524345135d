import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { compileUriTemplate } from './uri-template.ts';

const WHERE = 'createMcpHandler: resource template';

function refusal(template: unknown): string {
  try {
    compileUriTemplate(template as string, WHERE);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(template)} was accepted`);
}

/** RFC 6570 level-1 expansion, written independently of the matcher: each value percent-encoded. */
function expand(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

describe('compileUriTemplate refusals', () => {
  test('refuses a template that is not a non-empty string', () => {
    for (const template of ['', undefined, null, 42, {}]) {
      expect(refusal(template)).toBe(`${WHERE}: uriTemplate must be a non-empty string`);
    }
  });

  test('refuses a "}" that no "{" opened', () => {
    expect(refusal('docs://a}b')).toBe(`${WHERE}: uriTemplate "docs://a}b" has a "}" without "{"`);
    expect(refusal('docs://{a}}')).toBe(`${WHERE}: uriTemplate "docs://{a}}" has a "}" without "{"`);
  });

  test('refuses a "{" that is never closed', () => {
    expect(refusal('docs://{a')).toBe(`${WHERE}: uriTemplate "docs://{a" has an unclosed "{"`);
    expect(refusal('docs://{a}/{b')).toStartWith(`${WHERE}: uriTemplate "docs://{a}/{b" has an unclosed "{"`);
  });

  test('refuses level 2+ operators, lists, modifiers and odd names (RFC 6570 §2.2, §2.4)', () => {
    for (const expression of [
      '+path',
      '#frag',
      '.ext',
      '/seg',
      ';p',
      '?q',
      '&q',
      'a,b',
      'a*',
      'a:3',
      '',
      'a b',
      'a-b',
      'é',
    ]) {
      const template = `docs://{${expression}}`;
      expect(refusal(template)).toBe(
        `${WHERE}: uriTemplate ${JSON.stringify(template)} has the expression {${expression}}; only simple {name} ` +
          'expressions (RFC 6570 level 1, letters, digits and _) are supported',
      );
    }
  });

  test('refuses two expressions in a row, which could not be told apart', () => {
    expect(refusal('docs://{a}{b}')).toBe(
      `${WHERE}: uriTemplate "docs://{a}{b}" has two expressions in a row; they could not be told apart`,
    );
  });

  test('refuses a variable used twice', () => {
    expect(refusal('docs://{a}/{a}')).toBe(`${WHERE}: uriTemplate "docs://{a}/{a}" repeats a variable`);
  });

  test('accepts letters, digits and underscores in names, and lists the variables in order, frozen', () => {
    const compiled = compileUriTemplate('db://{Schema_1}/tables/{table}/rows/{id}', WHERE);
    expect(compiled.template).toBe('db://{Schema_1}/tables/{table}/rows/{id}');
    expect(compiled.variables).toEqual(['Schema_1', 'table', 'id']);
    expect(Object.isFrozen(compiled.variables)).toBe(true);
    expect(Object.isFrozen(compiled)).toBe(true);
  });
});

describe('compileUriTemplate matching', () => {
  test('a template without expressions matches exactly its own text', () => {
    const compiled = compileUriTemplate('docs://readme', WHERE);
    expect(compiled.variables).toEqual([]);
    expect(compiled.match('docs://readme')).toEqual({});
    expect(compiled.match('docs://readme2')).toBeUndefined();
    expect(compiled.match('docs://readm')).toBeUndefined();
    expect(compiled.match('DOCS://readme')).toBeUndefined();
  });

  test('matches several variables between literals', () => {
    const compiled = compileUriTemplate('file:///{dir}/{name}.txt', WHERE);
    expect(compiled.match('file:///docs/readme.txt')).toEqual({ dir: 'docs', name: 'readme' });
    expect(compiled.match('file:///a/b.c.txt')).toEqual({ dir: 'a', name: 'b.c' });
    const leading = compileUriTemplate('{scheme}://x/{id}', WHERE);
    expect(leading.match('db://x/42')).toEqual({ scheme: 'db', id: '42' });
  });

  test('percent-decodes values, multi-byte UTF-8 included', () => {
    const compiled = compileUriTemplate('file:///{dir}/{name}.txt', WHERE);
    expect(compiled.match('file:///a%20b/caf%C3%A9.txt')).toEqual({ dir: 'a b', name: 'café' });
    expect(compiled.match('file:///%25/%F0%9F%9A%80.txt')).toEqual({ dir: '%', name: '🚀' });
  });

  test('a variable never spans a "/"', () => {
    const compiled = compileUriTemplate('file:///{dir}/{name}.txt', WHERE);
    expect(compiled.match('file:///a/b/c.txt')).toBeUndefined();
    const last = compileUriTemplate('docs://{path}', WHERE);
    expect(last.match('docs://a/b')).toBeUndefined();
    expect(last.match('docs://a/')).toBeUndefined();
  });

  test('refuses values that decode to a separator, a control character or a traversal', () => {
    const compiled = compileUriTemplate('file:///root/{name}', WHERE);
    const refused = [
      '%2F',
      'a%2Fb',
      '%2f',
      '%5C',
      'a%5cb',
      '%00',
      'a%0Ab',
      '%1F',
      '%7F',
      '.',
      '..',
      '%2E',
      '%2E%2E',
      '%2e.',
    ];
    for (const value of refused) expect(compiled.match(`file:///root/${value}`)).toBeUndefined();
    expect(compiled.match('file:///root/...')).toEqual({ name: '...' });
    expect(compiled.match('file:///root/.hidden')).toEqual({ name: '.hidden' });
    expect(compiled.match('file:///root/a..b')).toEqual({ name: 'a..b' });
  });

  test('refuses malformed percent-encoding', () => {
    const compiled = compileUriTemplate('docs://{id}', WHERE);
    for (const value of ['%', '%2', '%zz', 'a%G1', '%E0%A4%A', '%C3', '%FF']) {
      expect(compiled.match(`docs://${value}`)).toBeUndefined();
    }
  });

  test('refuses trailing text, a missing literal and an empty value', () => {
    const compiled = compileUriTemplate('docs://{id}/meta', WHERE);
    expect(compiled.match('docs://7/meta')).toEqual({ id: '7' });
    expect(compiled.match('docs://7/meta/extra')).toBeUndefined();
    expect(compiled.match('docs://7/metax')).toBeUndefined();
    expect(compiled.match('docs://7')).toBeUndefined();
    expect(compiled.match('docs:///meta')).toBeUndefined();
    expect(compileUriTemplate('docs://{id}', WHERE).match('docs://')).toBeUndefined();
    expect(compileUriTemplate('docs://{id}', WHERE).match('other://7')).toBeUndefined();
  });

  test('returns a fresh object per match', () => {
    const compiled = compileUriTemplate('docs://{id}', WHERE);
    const first = compiled.match('docs://1') as Record<string, string>;
    first.id = 'changed';
    expect(compiled.match('docs://1')).toEqual({ id: '1' });
  });
});

// Safe values: non-empty, well-formed UTF-16, no control characters, no "/" or "\", not "." or "..".
const safeValue = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter(
  (value) =>
    value !== '.' &&
    value !== '..' &&
    ![...value].some((c) => {
      const code = c.codePointAt(0) as number;
      return code < 0x20 || code === 0x7f || c === '/' || c === '\\';
    }),
);

// Literals between variables contain "/", which encodeURIComponent always escapes in a value, so
// the expansion is unambiguous; the template may start or end with a variable.
const templateShape = fc.record({
  scheme: fc.constantFrom('docs://', 'file:///', 'x-app://host/'),
  separators: fc.array(fc.constantFrom('/', '/v/', '/by-id/', '/_/'), { minLength: 0, maxLength: 3 }),
  suffix: fc.constantFrom('', '/meta', '/raw.json'),
});

describe('compileUriTemplate properties', () => {
  test('expanding safe values then matching returns them', () => {
    fc.assert(
      fc.property(templateShape, fc.array(safeValue, { minLength: 4, maxLength: 4 }), (shape, values) => {
        const names = ['v0', ...shape.separators.map((_, i) => `v${i + 1}`)];
        const template =
          shape.scheme +
          names.map((name, i) => (i === 0 ? '' : shape.separators[i - 1]) + `{${name}}`).join('') +
          shape.suffix;
        const expected = Object.fromEntries(names.map((name, i) => [name, values[i] as string]));
        const compiled = compileUriTemplate(template, WHERE);
        expect(compiled.variables).toEqual(names);
        expect(compiled.match(expand(template, expected))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  test('a raw "/" in any value prevents the match', () => {
    fc.assert(
      fc.property(safeValue, safeValue, (before, after) => {
        const compiled = compileUriTemplate('docs://{a}/{b}', WHERE);
        const uri = `docs://${encodeURIComponent(before)}/${encodeURIComponent(before)}/${encodeURIComponent(after)}`;
        expect(compiled.match(uri)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

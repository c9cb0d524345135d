import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { unescapeHtml } from './escape.ts';
import { HIGHLIGHTED_LANGUAGES, highlight } from './highlight.ts';

/** Removes the highlighter's spans (and nothing else), checking that they are well formed. */
function stripSpans(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    if (html.startsWith('<span class="tok-', i)) {
      const close = html.indexOf('">', i);
      const kind = html.slice(i + '<span class="tok-'.length, close);
      expect(kind).toMatch(/^[a-z]+$/);
      i = close + 2;
    } else if (html.startsWith('</span>', i)) {
      i += '</span>'.length;
    } else {
      expect(html.charAt(i)).not.toBe('<');
      out += html.charAt(i);
      i++;
    }
  }
  return out;
}

/** `[kind, text]` pairs of the spans in `html`, in order. */
function spans(html: string): [string, string][] {
  const found: [string, string][] = [];
  for (const match of html.matchAll(/<span class="tok-([a-z]+)">([^<]*)<\/span>/g)) {
    found.push([match[1] ?? '', unescapeHtml(match[2] ?? '')]);
  }
  return found;
}

const LANGUAGES = [...HIGHLIGHTED_LANGUAGES, 'text', 'python', undefined];

describe('highlight', () => {
  test('stripping the spans and unescaping gives back any input exactly, in every language', () => {
    const source = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({
        unit: fc.constantFrom(...'`${}\'"\\/*#\n $<>&a1-:{}[]HTTP/ GET'.split('')),
        maxLength: 200,
      }),
    );
    fc.assert(
      fc.property(source, fc.constantFrom(...LANGUAGES), (code, lang) => {
        const html = highlight(code, lang);
        expect(unescapeHtml(stripSpans(html))).toBe(code);
      }),
      { numRuns: 1000 },
    );
  });

  test('no < appears in the output except the spans, and spans never nest', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom(...LANGUAGES), (code, lang) => {
        const html = highlight(code, lang);
        const withoutSpans = html.replaceAll(/<span class="tok-[a-z]+">[^<]*<\/span>/g, '');
        expect(withoutSpans).not.toContain('<');
      }),
      { numRuns: 500 },
    );
  });

  test('escapes markup in code instead of emitting it', () => {
    const html = highlight('const a = "</code><script>alert(1)</script>";', 'ts');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;/code&gt;&lt;script&gt;');
  });

  test('renders unknown and missing languages as escaped plain text', () => {
    expect(highlight('if (a < b) { return "x"; }', 'python')).toBe('if (a &lt; b) { return &quot;x&quot;; }');
    expect(highlight('<b>', undefined)).toBe('&lt;b&gt;');
  });

  test('colours TypeScript keywords, types, strings, numbers, comments and punctuation', () => {
    const html = highlight("import { App } from 'charter'; // note\nconst n: Number = 42;", 'ts');
    expect(spans(html)).toEqual([
      ['keyword', 'import'],
      ['punctuation', '{'],
      ['type', 'App'],
      ['punctuation', '}'],
      ['keyword', 'from'],
      ['string', "'charter'"],
      ['punctuation', ';'],
      ['comment', '// note'],
      ['keyword', 'const'],
      ['punctuation', ':'],
      ['type', 'Number'],
      ['punctuation', '='],
      ['number', '42'],
      ['punctuation', ';'],
    ]);
  });

  test('reads contextual keywords as names when called, used as keys or accessed as properties', () => {
    const html = highlight('type Q = typeof x; type({ type: 1 }); app.get(a.default, ...rest)', 'ts');
    expect(spans(html).filter(([kind]) => kind === 'keyword')).toEqual([
      ['keyword', 'type'],
      ['keyword', 'typeof'],
    ]);
  });

  test('treats language names case-insensitively', () => {
    expect(highlight('const', 'TypeScript')).toBe('<span class="tok-keyword">const</span>');
  });

  test('highlights template literals as strings and their substitutions as code, nested', () => {
    const html = highlight('`a ${ {b: 1}.b + `c${d}` } e`', 'js');
    expect(spans(html)).toEqual([
      ['string', '`a '],
      ['punctuation', '${'],
      ['punctuation', '{'],
      ['punctuation', ':'],
      ['number', '1'],
      ['punctuation', '}.'],
      ['punctuation', '+'],
      ['string', '`c'],
      ['punctuation', '${'],
      ['punctuation', '}'],
      ['string', '`'],
      ['punctuation', '}'],
      ['string', ' e`'],
    ]);
  });

  test('keeps escaped quotes inside strings and ends unterminated strings at the line end', () => {
    expect(spans(highlight(`'it\\'s' x`, 'ts'))).toEqual([['string', `'it\\'s'`]]);
    expect(spans(highlight(`"open\nconst`, 'ts'))).toEqual([
      ['string', '"open'],
      ['keyword', 'const'],
    ]);
  });

  test('colours block comments across lines', () => {
    expect(spans(highlight('/* a\n b */ x', 'ts'))).toEqual([['comment', '/* a\n b */']]);
  });

  test('marks JSON member names as properties and values as strings, numbers and keywords', () => {
    expect(spans(highlight('{"a": "b", "n": -1.5e3, "t": true, "z": null}', 'json'))).toEqual([
      ['punctuation', '{'],
      ['property', '"a"'],
      ['punctuation', ':'],
      ['string', '"b"'],
      ['punctuation', ','],
      ['property', '"n"'],
      ['punctuation', ':'],
      ['number', '-1.5e3'],
      ['punctuation', ','],
      ['property', '"t"'],
      ['punctuation', ':'],
      ['keyword', 'true'],
      ['punctuation', ','],
      ['property', '"z"'],
      ['punctuation', ':'],
      ['keyword', 'null'],
      ['punctuation', '}'],
    ]);
  });

  test('colours shell comments, strings, variables and keywords', () => {
    const html = highlight('# install\nif [ -n "$X" ]; then echo \'hi\' $HOME ${A}; fi # end', 'sh');
    expect(spans(html)).toEqual([
      ['comment', '# install'],
      ['keyword', 'if'],
      ['string', '"$X"'],
      ['punctuation', ';'],
      ['keyword', 'then'],
      ['string', "'hi'"],
      ['variable', '$HOME'],
      ['variable', '${A}'],
      ['punctuation', ';'],
      ['keyword', 'fi'],
      ['comment', '# end'],
    ]);
  });

  test('does not treat # inside a shell word as a comment', () => {
    expect(spans(highlight('curl http://x/#frag', 'bash'))).toEqual([]);
  });

  test('colours HTTP start lines, header names and a JSON body, for a request and its response', () => {
    const code =
      'POST /oauth/token HTTP/1.1\nContent-Type: application/json\n\n{"a": 1}\n\nHTTP/1.1 200 OK\nETag: "x"\n';
    expect(spans(highlight(code, 'http'))).toEqual([
      ['keyword', 'POST'],
      ['keyword', 'HTTP/1.1'],
      ['property', 'Content-Type'],
      ['punctuation', ':'],
      ['punctuation', '{'],
      ['property', '"a"'],
      ['punctuation', ':'],
      ['number', '1'],
      ['punctuation', '}'],
      ['keyword', 'HTTP/1.1'],
      ['number', '200'],
      ['property', 'ETag'],
      ['punctuation', ':'],
    ]);
  });

  test('handles pathological input in linear time', () => {
    const inputs = ['`${'.repeat(20_000), '"\\'.repeat(20_000), '/*'.repeat(20_000), '$\\{'.repeat(20_000)];
    const started = performance.now();
    for (const input of inputs) {
      for (const lang of ['ts', 'json', 'sh', 'http'])
        expect(highlight(input, lang).length).toBeGreaterThan(0);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

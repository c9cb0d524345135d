import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { collapseWhitespace } from '../content/text.ts';
import { makeSnippet, SNIPPET_WIDTH } from './snippet.ts';

const words = (count: number, word = 'filler') => Array.from({ length: count }, () => word).join(' ');

/** No lone surrogate (String.prototype.isWellFormed, ES2024, beyond the project's lib setting). */
const wellFormed = (text: string) => !/\p{Cs}/u.test(text);

/** The snippet without its highlight markers, escapes and ellipses: the text it shows. */
function plain(snippet: string): string {
  return snippet.replaceAll('**', '').replaceAll('…', '').replaceAll('\\*', '*').replaceAll('\\\\', '\\');
}

describe('makeSnippet', () => {
  test('a short text is shown whole, each matched term in bold, with no ellipsis', () => {
    expect(makeSnippet('Tokens expire after one hour.', new Set(['tokens', 'hour']))).toBe(
      '**Tokens** expire after one **hour**.',
    );
  });

  test('a window of about 200 characters around the match, cut at spaces, with ellipses at both cut ends', () => {
    const text = `${words(60)} the quokka smiles ${words(60)}`;
    const snippet = makeSnippet(text, new Set(['quokka'])) as string;
    expect(snippet.startsWith('…filler')).toBe(true);
    expect(snippet.endsWith('filler…')).toBe(true);
    expect(snippet).toContain('the **quokka** smiles');
    const shown = plain(snippet);
    expect(shown.length).toBeLessThanOrEqual(SNIPPET_WIDTH);
    expect(shown.length).toBeGreaterThan(SNIPPET_WIDTH - 30);
    // Centred on the match: about as much text before it as after.
    const at = shown.indexOf('quokka');
    expect(Math.abs(at - (shown.length - at - 'quokka'.length))).toBeLessThan(40);
    expect(text.includes(shown)).toBe(true);
  });

  test('picks the window holding the most distinct matched terms', () => {
    const text = `alpha ${words(80)} alpha beta gamma ${words(80)} beta`;
    const snippet = makeSnippet(text, new Set(['alpha', 'beta', 'gamma'])) as string;
    expect(snippet).toContain('**alpha** **beta** **gamma**');
  });

  test('at the start of the text there is no leading ellipsis', () => {
    const snippet = makeSnippet(`quokka ${words(100)}`, new Set(['quokka'])) as string;
    expect(snippet.startsWith('**quokka** filler')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  test('parts of one word are emphasised as one span, and a whole word over its parts once', () => {
    expect(makeSnippet('Use rateLimit and search_docs.', new Set(['rate', 'limit', 'search', 'docs']))).toBe(
      'Use **rateLimit** and **search_docs**.',
    );
    expect(makeSnippet('Call createMcpHandler now.', new Set(['createmcphandler', 'mcp']))).toBe(
      'Call **createMcpHandler** now.',
    );
    expect(makeSnippet('Call createMcpHandler now.', new Set(['mcp']))).toBe(
      'Call create**Mcp**Handler now.',
    );
  });

  test('escapes the text’s own asterisks and backslashes so only highlights are emphasis', () => {
    expect(makeSnippet('a * b **c** \\ jwt', new Set(['jwt']))).toBe('a \\* b \\*\\*c\\*\\* \\\\ **jwt**');
  });

  test('without a match: the start of the text, or undefined when fallback is false', () => {
    const text = words(100);
    const snippet = makeSnippet(text, new Set(['absent'])) as string;
    expect(snippet.startsWith('filler filler')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).not.toContain('**');
    expect(makeSnippet(text, new Set(['absent']), { fallback: false })).toBeUndefined();
    expect(makeSnippet('', new Set(['absent']))).toBe('');
  });

  test('never leaves half a surrogate pair at a cut', () => {
    const text = `${'🦘'.repeat(150)} quokka ${'🦘'.repeat(150)}`;
    const snippet = makeSnippet(text, new Set(['quokka'])) as string;
    expect(snippet).toContain('**quokka**');
    expect(wellFormed(snippet)).toBe(true);
  });

  test('property: never throws, stays well-formed and short, shows only text of the input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 600 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }),
        (raw, picked) => {
          const text = collapseWhitespace(raw);
          const snippet = makeSnippet(text, new Set(picked.map((t) => t.toLowerCase()))) as string;
          expect(wellFormed(snippet) || !wellFormed(text)).toBe(true);
          const shown = plain(snippet);
          expect(shown.length).toBeLessThanOrEqual(Math.max(SNIPPET_WIDTH, text.length));
          if (!text.includes('…') && !text.includes('*') && !text.includes('\\')) {
            expect(text.includes(shown)).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('collapseWhitespace', () => {
  test('turns runs of white space into one space and trims', () => {
    expect(collapseWhitespace('  a \n\n b\t c  ')).toBe('a b c');
  });
});

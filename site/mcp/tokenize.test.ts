import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { MAX_TERM_LENGTH, normalizeTerm, queryWords, tokenize } from './tokenize.ts';

const terms = (text: string) => tokenize(text).map((token) => (token.part ? `(${token.term})` : token.term));

describe('tokenize', () => {
  test('keeps a camelCase word whole and adds its parts', () => {
    expect(terms('createMcpHandler')).toEqual(['createmcphandler', '(create)', '(mcp)', '(handler)']);
  });

  test('joins snake_case and kebab-case runs into one word with their parts', () => {
    expect(terms('search_docs rate-limit')).toEqual([
      'search_docs',
      '(search)',
      '(docs)',
      'rate-limit',
      '(rate)',
      '(limit)',
    ]);
  });

  test('splits an acronym before the capital that starts the next word, and keeps digits attached', () => {
    expect(terms('HTTPServer base64Url sha256')).toEqual([
      'httpserver',
      '(http)',
      '(server)',
      'base64url',
      '(base64)',
      '(url)',
      'sha256',
    ]);
  });

  test('a double connector or punctuation separates words instead of joining them', () => {
    expect(terms('a__b c.d e--f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  test('reads letters and digits of any script, lower-cased and NFKC-normalised', () => {
    expect(terms('Café 東京 Ｗｉｄｅ ŒUVRE 429')).toEqual(['café', '東京', 'wide', 'œuvre', '429']);
  });

  test('offsets point at the token in the original text', () => {
    const text = 'Use defineMcpTool, then ship.';
    for (const token of tokenize(text)) {
      expect(normalizeTerm(text.slice(token.start, token.end))).toBe(token.term);
    }
    const part = tokenize(text).find((token) => token.term === 'mcp');
    expect(part).toMatchObject({ start: 10, end: 13, part: true });
  });

  test('symbols, emoji and white space yield no terms', () => {
    expect(tokenize('🦘 *** --- ... \n\t')).toEqual([]);
  });

  test('cuts a term to MAX_TERM_LENGTH code points', () => {
    const long = 'x'.repeat(MAX_TERM_LENGTH + 10);
    expect(tokenize(long)[0]?.term).toHaveLength(MAX_TERM_LENGTH);
    expect(Array.from(normalizeTerm('é'.repeat(100)))).toHaveLength(MAX_TERM_LENGTH);
  });

  test('property: never throws, terms are non-empty and offsets lie inside the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        for (const token of tokenize(text)) {
          expect(token.term.length).toBeGreaterThan(0);
          expect(token.start).toBeGreaterThanOrEqual(0);
          expect(token.end).toBeLessThanOrEqual(text.length);
          expect(token.start).toBeLessThan(token.end);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('queryWords', () => {
  test('one entry per word: the whole term and its parts', () => {
    expect(queryWords('createMcpHandler rate limit', 16)).toEqual([
      { whole: 'createmcphandler', parts: ['create', 'mcp', 'handler'] },
      { whole: 'rate', parts: [] },
      { whole: 'limit', parts: [] },
    ]);
  });

  test('drops repeated words and stops at the word cap', () => {
    expect(queryWords('jwt JWT Jwt keys', 16).map((word) => word.whole)).toEqual(['jwt', 'keys']);
    expect(queryWords('a b c d e f', 3).map((word) => word.whole)).toEqual(['a', 'b', 'c']);
  });

  test('a query of symbols has no words', () => {
    expect(queryWords('*** ??? 🦘', 16)).toEqual([]);
  });
});

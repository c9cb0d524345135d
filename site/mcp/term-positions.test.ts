import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { hitsOf, MAX_POSITIONS_PER_TERM, termPositions } from './term-positions.ts';
import { tokenize } from './tokenize.ts';

describe('termPositions', () => {
  test('records every occurrence of every term, whole words and their parts, in text order', () => {
    const text = 'Call createMcpHandler, then call it again.';
    const positions = termPositions(text);
    expect([...(positions.get('call') ?? [])]).toEqual([0, 4, 28, 32]);
    expect([...(positions.get('createmcphandler') ?? [])]).toEqual([5, 21]);
    expect([...(positions.get('mcp') ?? [])]).toEqual([11, 14]);
    expect(positions.has('absent')).toBe(false);
  });

  test('keeps at most MAX_POSITIONS_PER_TERM occurrences of one term', () => {
    const positions = termPositions('word '.repeat(MAX_POSITIONS_PER_TERM + 10));
    expect(positions.get('word')?.length).toBe(MAX_POSITIONS_PER_TERM * 2);
  });
});

describe('hitsOf', () => {
  test('merges the terms asked for by start, a whole word before its part, cut at max', () => {
    const positions = termPositions('rateLimit and rate');
    expect(hitsOf(positions, new Set(['rate', 'ratelimit']), 10)).toEqual([
      { start: 0, end: 9, term: 'ratelimit' },
      { start: 0, end: 4, term: 'rate' },
      { start: 14, end: 18, term: 'rate' },
    ]);
    expect(hitsOf(positions, new Set(['rate', 'ratelimit']), 2)).toHaveLength(2);
  });

  test('finds nothing for terms the text lacks', () => {
    expect(hitsOf(termPositions('alpha beta'), new Set(['gamma']), 10)).toEqual([]);
    expect(hitsOf(termPositions(''), new Set(['alpha']), 10)).toEqual([]);
  });

  test('each term gives its earliest ceil(max / terms) occurrences', () => {
    const positions = termPositions('a b a b a b a b');
    expect(hitsOf(positions, new Set(['a', 'b']), 4).map((hit) => `${hit.term}@${hit.start}`)).toEqual([
      'a@0',
      'b@2',
      'a@4',
      'b@6',
    ]);
    expect(hitsOf(positions, new Set(['a']), 3).map((hit) => hit.start)).toEqual([0, 4, 8]);
  });

  test('property: the hits are those a scan of the text finds, earliest first, per term and in all', () => {
    // The scan the index replaced, bounded the same way: tokenise, keep each matched term's first
    // ceil(max / terms) occurrences (and at most MAX_POSITIONS_PER_TERM), then the first max.
    const scan = (text: string, terms: ReadonlySet<string>, max: number) => {
      const perTerm = Math.min(MAX_POSITIONS_PER_TERM, Math.ceil(max / terms.size));
      const seen = new Map<string, number>();
      return tokenize(text)
        .filter((token) => {
          if (!terms.has(token.term)) return false;
          const count = (seen.get(token.term) ?? 0) + 1;
          seen.set(token.term, count);
          return count <= perTerm;
        })
        .map(({ start, end, term }) => ({ start, end, term }))
        .sort((a, b) => a.start - b.start || b.end - a.end)
        .slice(0, max);
    };
    const word = fc.constantFrom('alpha', 'Beta', 'rateLimit', 'search_docs', 'x*y', 'é', '😀', '  ');
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 200 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 300 }),
        (words, wanted, max) => {
          const text = words.join(' ');
          const terms = new Set(wanted.flatMap((w) => tokenize(w).map((t) => t.term)));
          if (terms.size === 0) return;
          expect(hitsOf(termPositions(text), terms, max)).toEqual(scan(text, terms, max));
        },
      ),
      { numRuns: 300 },
    );
  });
});

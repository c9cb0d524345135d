import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { compileEditDistance, editDistance, editDistanceWithin } from './edit-distance.ts';
import { createPathSuggestions, pathSuggestionsOf, SLACK } from './path-suggestions.ts';

const PATHS = ['index', 'docs', 'docs/jwt', 'docs/jwk', 'docs/routes-and-hooks', 'errors/not-found'];

/** The ranking without an index: every path, the full table, sorted (what the index must agree with). */
function bruteForce(paths: readonly string[], wanted: string, limit: number, cut: number): number[] {
  const target = wanted.slice(0, cut).toLowerCase();
  const prefix = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  return paths
    .map((path, index) => {
      const lower = path.toLowerCase();
      return { index, distance: editDistance(target, lower), prefix: prefix(target, lower) };
    })
    .sort((x, y) => x.distance - y.distance || y.prefix - x.prefix || x.index - y.index)
    .slice(0, Math.max(0, limit))
    .map((entry) => entry.index);
}

describe('editDistanceWithin', () => {
  test('is the distance when within the bound, else bound + 1', () => {
    expect(editDistanceWithin('kitten', 'sitting', 3)).toBe(3);
    expect(editDistanceWithin('kitten', 'sitting', 2)).toBe(3);
    expect(editDistanceWithin('kitten', 'sitting', 0)).toBe(1);
    expect(editDistanceWithin('', 'abc', 5)).toBe(3);
    expect(editDistanceWithin('same', 'same', 0)).toBe(0);
    expect(editDistanceWithin('a', 'abcdefgh', 3)).toBe(4);
  });

  test('property: agrees with editDistance for any bound', () => {
    const text = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'c', '/') });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 14 }), (a, b, max) => {
        const distance = editDistance(a, b);
        return editDistanceWithin(a, b, max) === (distance <= max ? distance : max + 1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('compileEditDistance', () => {
  test('answers the distance within the bound, else bound + 1, for patterns of 0 to 33 code units', () => {
    for (const length of [0, 1, 31, 32, 33]) {
      const pattern = 'ab'.repeat(20).slice(0, length);
      const distance = compileEditDistance(pattern);
      for (const text of ['', 'a', pattern, `${pattern}x`, `b${pattern.slice(1)}`, `zzzz${pattern}`]) {
        expect([length, text, distance(text, 100)]).toEqual([length, text, editDistance(text, pattern)]);
      }
      expect(distance('q'.repeat(length + 5), 2)).toBe(3);
    }
  });

  test('property: agrees with editDistance, non-ASCII and surrogate pairs included', () => {
    const unit = fc.constantFrom('a', 'b', 'c', '/', 'é', '😀');
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40, unit }),
        fc.string({ maxLength: 40, unit }),
        fc.integer({ min: 0, max: 45 }),
        (text, pattern, max) => {
          const distance = editDistance(text, pattern);
          return compileEditDistance(pattern)(text, max) === (distance <= max ? distance : max + 1);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('createPathSuggestions', () => {
  const index = createPathSuggestions(PATHS);

  test('ranks by edit distance, then shared prefix, then the order given, case-insensitively', () => {
    const names = (wanted: string, limit = 3) => index.closest(wanted, limit).map((i) => PATHS[i]);
    expect(names('docs/jwtt')).toEqual(['docs/jwt', 'docs/jwk', 'docs']);
    // Equal distance and prefix: the order given (jwt before jwk).
    expect(names('docs/jw', 2)).toEqual(['docs/jwt', 'docs/jwk']);
    expect(names('DOCS/JWK', 1)).toEqual(['docs/jwk']);
    expect(names('docs/route-and-hook', 1)).toEqual(['docs/routes-and-hooks']);
    // Equal distance: the longer shared prefix first, whatever the order given.
    expect(createPathSuggestions(['zb', 'az']).closest('ab', 2)).toEqual([1, 0]);
  });

  test('answers at most limit paths, and none for a limit below one or an empty list', () => {
    expect(index.closest('x', 2)).toHaveLength(2);
    expect(index.closest('x', 100)).toHaveLength(PATHS.length);
    expect(index.closest('x', 0)).toEqual([]);
    expect(index.closest('x', Number.NaN)).toEqual([]);
    expect(createPathSuggestions([]).closest('docs', 5)).toEqual([]);
  });

  test('compares the longest path plus SLACK characters of a long request, however long', () => {
    expect(index.maxCompared).toBe('docs/routes-and-hooks'.length + SLACK);
    const long = `docs/jwt${'z'.repeat(100_000)}`;
    expect(index.closest(long, 5)).toEqual(index.closest(long.slice(0, index.maxCompared), 5));
  });

  test('refuses something that is not an array of strings', () => {
    expect(() => createPathSuggestions('docs' as never)).toThrow(
      new TypeError('createPathSuggestions: paths must be an array of strings'),
    );
    expect(() => createPathSuggestions([1] as never)).toThrow(TypeError);
  });

  test('property: the same answer as comparing every path in full', () => {
    const segment = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'b', 'c', 'd', '-') });
    const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(
        fc.array(path, { minLength: 1, maxLength: 12 }),
        fc.string({ maxLength: 30, unit: fc.constantFrom('a', 'b', 'c', 'd', '-', '/', 'A') }),
        fc.integer({ min: 1, max: 6 }),
        (paths, wanted, limit) => {
          const built = createPathSuggestions(paths);
          const expected = bruteForce(paths, wanted, limit, built.maxCompared);
          return JSON.stringify(built.closest(wanted, limit)) === JSON.stringify(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('pathSuggestionsOf', () => {
  test('builds the index of a list of pages once', () => {
    const pages = PATHS.map((path) => ({ path }));
    expect(pathSuggestionsOf(pages)).toBe(pathSuggestionsOf(pages));
    expect(pathSuggestionsOf(pages)).not.toBe(pathSuggestionsOf([...pages]));
    expect(pathSuggestionsOf(pages).closest('docs/jwtt', 1)).toEqual([2]);
  });
});

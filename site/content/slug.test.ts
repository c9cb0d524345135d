import { describe, expect, test } from 'bun:test';
import { Slugger, slugify } from './slug.ts';

describe('slugify', () => {
  test('lower-cases, turns spaces into hyphens and drops punctuation, as GitHub does', () => {
    expect(slugify('Time claims: assertTemporalClaims')).toBe('time-claims-asserttemporalclaims');
    expect(slugify('Verifying: createJwtVerifier(options)')).toBe('verifying-createjwtverifieroptions');
    expect(slugify('snake_case and kebab-case')).toBe('snake_case-and-kebab-case');
    expect(slugify('Ünïcode wörds 2')).toBe('ünïcode-wörds-2');
  });

  test('falls back to "section" when nothing is left', () => {
    expect(slugify('?!')).toBe('section');
    expect(slugify('')).toBe('section');
  });
});

describe('Slugger', () => {
  test('suffixes repeats with -2, -3 and skips reserved and already taken ids', () => {
    const slugger = new Slugger(['reserved']);
    expect(['A', 'A', 'Reserved', 'A 2', 'A'].map((text) => slugger.slug(text))).toEqual([
      'a',
      'a-2',
      'reserved-2',
      'a-2-2',
      'a-3',
    ]);
  });
});

import { describe, expect, test } from 'bun:test';
import { compareSections, placeFile, sectionTitle } from './paths.ts';

describe('placeFile', () => {
  test.each([
    ['index.md', 'index', '/', '/index.md', ''],
    ['about.md', 'about', '/about', '/about.md', ''],
    ['docs/index.md', 'docs', '/docs', '/docs.md', 'docs'],
    ['docs/jwt.md', 'docs/jwt', '/docs/jwt', '/docs/jwt.md', 'docs'],
    ['errors/not-found.md', 'errors/not-found', '/errors/not-found', '/errors/not-found.md', 'errors'],
  ])('places %p', (file, path, url, markdownUrl, section) => {
    expect(placeFile(file)).toEqual({ file, path, url, markdownUrl, section });
  });

  test.each([
    ['a.txt', 'only Markdown files'],
    ['a.MD', 'only Markdown files'],
    ['A.md', 'may use only a-z'],
    ['a/b/c.md', 'one level deep'],
    ['/a.md', 'empty segment'],
    ['.md', 'empty segment'],
  ])('refuses %p', (file, message) => {
    expect(() => placeFile(file)).toThrow(message);
  });
});

describe('sectionTitle and compareSections', () => {
  test('titles the known sections and derives the others from the folder name', () => {
    expect(['', 'docs', 'errors', 'api-notes'].map(sectionTitle)).toEqual([
      'Overview',
      'Guides',
      'Errors',
      'Api notes',
    ]);
  });

  test('orders top-level, docs, errors, then by name', () => {
    expect(['zeta', 'errors', 'alpha', '', 'docs'].sort(compareSections)).toEqual([
      '',
      'docs',
      'errors',
      'alpha',
      'zeta',
    ]);
  });
});

import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { testSite } from '../pages/test-site.ts';
import { buildContent } from './build.ts';
import { type ContentData, contentData, contentFromData } from './prebuilt.ts';
import { readContentDir } from './read-dir.ts';
import type { ContentSite } from './types.ts';

const CONTENT_DIR = join(import.meta.dir, '..', '..', 'content');

/** What `bun run site:compile` does: the data as JSON, read back as the executable reads it. */
function throughTheBinary(site: ContentSite): ContentSite {
  return contentFromData(JSON.parse(JSON.stringify(contentData(site))) as ContentData);
}

function expectSameSite(built: ContentSite, restored: ContentSite): void {
  expect(restored.pages).toStrictEqual(built.pages);
  for (const [i, page] of built.pages.entries()) {
    const copy = restored.pages[i]!;
    // Same fields in the same order (what JSON.stringify of a page shows), previous and next included.
    expect(Object.keys(copy)).toEqual(Object.keys(page));
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.headings)).toBe(true);
    expect(restored.byPath(page.path)).toBe(copy);
    expect(restored.byUrl(page.url)).toBe(copy);
  }
  expect(restored.sections.map((s) => [s.id, s.title, s.pages.map((p) => p.path)])).toEqual(
    built.sections.map((s) => [s.id, s.title, s.pages.map((p) => p.path)]),
  );
  // Sections list the very page objects of `pages`, as buildContent's do.
  for (const section of restored.sections) {
    expect(Object.isFrozen(section)).toBe(true);
    for (const page of section.pages) expect(restored.pages).toContain(page);
  }
  expect(Object.isFrozen(restored)).toBe(true);
  expect(Object.isFrozen(restored.pages)).toBe(true);
  expect(Object.isFrozen(restored.sections)).toBe(true);
  expect(restored.byPath('nope')).toBeUndefined();
  expect(restored.byUrl('/nope')).toBeUndefined();
}

describe('contentData and contentFromData', () => {
  test('give back the site buildContent built, field by field', () => {
    const site = testSite();
    expectSameSite(site, throughTheBinary(site));
  });

  test('give back the real content, first and last pages (no previous, no next) included', async () => {
    const site = buildContent(await readContentDir(CONTENT_DIR));
    const restored = throughTheBinary(site);
    expectSameSite(site, restored);
    expect(restored.pages[0]!.previous).toBeUndefined();
    expect('previous' in restored.pages[0]!).toBe(true);
    expect(restored.pages.at(-1)!.next).toBeUndefined();
  });

  test('the data is plain JSON: sections refer to pages by position', () => {
    const data = contentData(testSite());
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    expect(data.sections[0]!.pages.every((index) => Number.isInteger(index))).toBe(true);
  });
});

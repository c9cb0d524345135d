import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testSite } from '../pages/test-site.ts';
import { buildContent } from './build.ts';
import {
  type ContentData,
  contentData,
  contentFromData,
  contentFromIndex,
  embeddedContentModule,
  type PageBody,
} from './prebuilt.ts';
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

/** The index and body functions of `embeddedContentModule`, and how often each body was made. */
function lazyParts(site: ContentSite) {
  const data = JSON.parse(JSON.stringify(contentData(site))) as ContentData;
  const calls = data.pages.map(() => 0);
  const bodies = data.pages.map((page, i) => (): PageBody => {
    calls[i] = (calls[i] as number) + 1;
    return { markdown: page.markdown, html: page.html, text: page.text, headings: page.headings };
  });
  const index = {
    pages: data.pages.map(({ markdown: _m, html: _h, text: _t, headings: _s, ...rest }) => rest),
    sections: data.sections,
  };
  return { index, bodies, calls };
}

describe('contentFromIndex (the executable: page text made on first read)', () => {
  test('gives back the real content, field by field', async () => {
    const site = buildContent(await readContentDir(CONTENT_DIR));
    const { index, bodies } = lazyParts(site);
    expectSameSite(site, contentFromIndex(index, bodies));
  });

  test("makes no page's text or headings until one is read, then each body once", () => {
    const site = testSite();
    const { index, bodies, calls } = lazyParts(site);
    const restored = contentFromIndex(index, bodies);
    expect(restored.pages.map((page) => page.title)).toEqual(site.pages.map((page) => page.title));
    expect(calls.every((count) => count === 0)).toBe(true);
    const first = restored.pages[0]!;
    expect(first.html).toBe(site.pages[0]!.html);
    expect(first.markdown).toBe(site.pages[0]!.markdown);
    expect(first.text).toBe(site.pages[0]!.text);
    expect(first.headings).toEqual(site.pages[0]!.headings);
    expect(first.headings).toBe(first.headings);
    expect(Object.isFrozen(first.headings)).toBe(true);
    expect(calls[0]).toBe(1);
    expect(calls.slice(1).every((count) => count === 0)).toBe(true);
    // The headings alone make the body too (a page's table of contents, the search index).
    const second = restored.pages[1]!;
    expect(second.headings).toEqual(site.pages[1]!.headings);
    expect(calls[1]).toBe(1);
    expect(second.markdown).toBe(site.pages[1]!.markdown);
    expect(calls[1]).toBe(1);
  });

  test('its pages stay read-only', () => {
    const { index, bodies } = lazyParts(testSite());
    const page = contentFromIndex(index, bodies).pages[0]! as { html: string; title: string };
    expect(() => {
      page.html = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      page.title = 'changed';
    }).toThrow(TypeError);
  });

  test('refuses an index and bodies that do not match', () => {
    const { index, bodies } = lazyParts(testSite());
    expect(() => contentFromIndex(index, bodies.slice(1))).toThrow(/pages but .* bodies/);
  });

  test('embeddedContentModule is a module with the exports of embedded.ts that gives the same site', async () => {
    const site = buildContent(await readContentDir(CONTENT_DIR));
    const dir = mkdtempSync(join(tmpdir(), 'charter-embedded-'));
    try {
      const file = join(dir, 'embedded.ts');
      // The module imports prebuilt.ts beside it; here it lives elsewhere, so point it back.
      // A template for the first page only: the others are rendered at run time.
      const templates = site.pages.map((_, i) => (i === 0 ? ['<p>', '</p>'] : undefined));
      const source = embeddedContentModule(contentData(site), templates).replace(
        "'./prebuilt.ts'",
        JSON.stringify(join(import.meta.dir, 'prebuilt.ts')),
      );
      writeFileSync(file, source);
      const embedded = (await import(file)) as typeof import('./embedded.ts');
      expect(embedded.EMBEDDED).toBe(true);
      const loaded = await embedded.loadContent('/no/such/dir');
      expectSameSite(site, loaded);
      expect(loaded.documentTemplate?.(site.pages[0]!.path)).toEqual(['<p>', '</p>']);
      expect(loaded.documentTemplate?.(site.pages[1]!.path)).toBeUndefined();
      expect(loaded.documentTemplate?.('nope')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

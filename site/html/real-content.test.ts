import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { buildContent } from '../content/build.ts';
import { readContentDir } from '../content/read-dir.ts';
import { SCRIPT_INTEGRITY, SCRIPT_URL } from './assets.ts';
import { renderPageDocument } from './document.ts';

const CONTENT_DIR = join(import.meta.dir, '..', '..', 'content');

describe('the real content/ directory', () => {
  test('builds, and every page renders as a complete document with only the site script and no inline style', async () => {
    const site = buildContent(await readContentDir(CONTENT_DIR));
    expect(site.byPath('index')?.url).toBe('/');
    expect(site.pages.length).toBeGreaterThan(1);
    for (const page of site.pages) {
      const html = renderPageDocument(site, page, { origin: 'http://localhost:3000' });
      expect(html).toContain(`<link rel="canonical" href="http://localhost:3000${page.url}">`);
      expect(html).toContain(`<a href="${page.url}" aria-current="page">`);
      expect(html).toContain('<h1');
      // The one script: the site's, by URL, with its integrity hash; nothing inline.
      expect([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
        `<script src="${SCRIPT_URL}" integrity="${SCRIPT_INTEGRITY}" defer>`,
      ]);
      expect(html).toContain('<script src=');
      expect(html).not.toMatch(/<script[^>]*>[^<]/);
      expect(html).not.toContain('<style');
      expect(html).not.toContain(' style="');
      expect(page.description.length).toBeGreaterThan(0);
      expect(page.text.length).toBeGreaterThan(0);
    }
  });
});

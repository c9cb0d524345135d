/**
 * Every page of the documentation site in a real browser (issue 23): headless Chromium (Debian's,
 * through playwright-core) opens each page at 1280 px and at 390 px and checks that the page never
 * scrolls sideways, that at 1280 px no code block is wider than the article column and none scrolls
 * unless a line of it is longer than 100 columns, and that the page logs no console error and
 * reports no CSP violation. Then: the header's search box finds pages, the Copy button copies, the
 * narrow-screen menu and the folded table of contents open. One browser and one tab for the whole
 * run; the counts are printed for the record.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import type { ContentSite } from '../../site/content/types.ts';
import { launchChromium } from '../browser/support/chromium.ts';
import { type PageWatch, watchedPage } from '../browser/support/page-watch.ts';
import { realContent, type RunningSite, startSite } from './support.ts';

/** Columns a code block may have and still have to fit the column at 1280 px. */
const FITTING_COLUMNS = 100;
const WIDE = 1280;
const NARROW = 390;

let site: RunningSite;
let content: ContentSite;
let browser: Browser;
let watch: PageWatch;

beforeAll(async () => {
  content = await realContent();
  site = await startSite();
  browser = await launchChromium();
  watch = await watchedPage(browser, 20_000);
  await watch.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
}, 60_000);

afterAll(async () => {
  await watch?.close();
  await browser?.close();
  await site?.stop();
});

/** What one page measured in the browser. */
interface Measured {
  /** The document's scroll width and the viewport's width. */
  readonly documentWidth: number;
  readonly viewportWidth: number;
  /** The article column's width. */
  readonly columnWidth: number;
  readonly blocks: readonly {
    readonly width: number;
    readonly scrolls: boolean;
    readonly longestLine: number;
    readonly firstLine: string;
  }[];
  readonly cspViolations: readonly unknown[];
}

async function measure(path: string): Promise<Measured> {
  const response = await watch.page.goto(`${site.origin}${path}`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return watch.page.evaluate(() => {
    const main = document.querySelector('main') as HTMLElement;
    const blocks = [...document.querySelectorAll('pre.code')].map((pre) => {
      const lines = (pre.textContent ?? '').split('\n');
      return {
        width: pre.getBoundingClientRect().width,
        scrolls: pre.scrollWidth > pre.clientWidth + 1,
        longestLine: Math.max(...lines.map((line) => [...line].length)),
        firstLine: lines[0] ?? '',
      };
    });
    return {
      documentWidth: document.documentElement.scrollWidth,
      viewportWidth: window.innerWidth,
      columnWidth: main.getBoundingClientRect().width,
      blocks,
      cspViolations: (window as unknown as { __cspViolations: unknown[] }).__cspViolations,
    };
  });
}

/**
 * No console error and no failed request since the last check. A request the next navigation
 * aborts (the favicon, still loading when the test moves on) is the browser's doing, not a failure.
 */
function expectClean(path: string): void {
  const failed = watch.failedRequests.filter((failure) => !failure.endsWith('net::ERR_ABORTED'));
  expect({ path, consoleErrors: watch.consoleErrors }).toEqual({ path, consoleErrors: [] });
  expect({ path, failedRequests: failed }).toEqual({ path, failedRequests: [] });
  watch.consoleErrors.length = 0;
  watch.failedRequests.length = 0;
}

/** The pages to open: every content page, and the search page with results. */
function paths(): string[] {
  return [...content.pages.map((page) => page.url), '/search?q=rate+limit'];
}

describe('every page in Chromium', () => {
  test(`at ${WIDE} px: no sideways scrolling, code blocks fit the column unless longer than ${FITTING_COLUMNS} columns`, async () => {
    await watch.page.setViewportSize({ width: WIDE, height: 900 });
    let blocks = 0;
    const scrolling: string[] = [];
    /** Code blocks per section, and how many of them scroll. */
    const bySection = new Map<string, { blocks: number; scroll: number }>();
    const sectionOf = (path: string): string => path.split(/[/?]/)[1] || 'home';
    for (const path of paths()) {
      const measured = await measure(path);
      expect({ path, width: measured.documentWidth }).toEqual({ path, width: measured.viewportWidth });
      expect({ path, violations: measured.cspViolations }).toEqual({ path, violations: [] });
      const counts = bySection.get(sectionOf(path)) ?? { blocks: 0, scroll: 0 };
      bySection.set(sectionOf(path), counts);
      for (const block of measured.blocks) {
        blocks++;
        counts.blocks++;
        if (block.scrolls) counts.scroll++;
        // No block sticks out of the article column...
        expect(block.width).toBeLessThanOrEqual(measured.columnWidth + 1);
        // ...and one that scrolls inside it holds a line longer than the column is made for.
        if (block.scrolls) {
          expect({ path, line: block.firstLine, longest: block.longestLine > FITTING_COLUMNS }).toEqual({
            path,
            line: block.firstLine,
            longest: true,
          });
          scrolling.push(path);
        }
      }
      expectClean(path);
    }
    console.log(
      `${WIDE} px: ${paths().length} pages, ${blocks} code blocks, ${scrolling.length} scroll sideways, each ` +
        `holding a line over ${FITTING_COLUMNS} columns; by section (scrolling/blocks): ` +
        [...bySection].map(([section, { blocks, scroll }]) => `${section} ${scroll}/${blocks}`).join(', '),
    );
    expect(blocks).toBeGreaterThan(100);
  }, 600_000);

  test(`at ${NARROW} px: no page scrolls sideways`, async () => {
    await watch.page.setViewportSize({ width: NARROW, height: 844 });
    for (const path of paths()) {
      const measured = await measure(path);
      expect({ path, width: measured.documentWidth }).toEqual({ path, width: measured.viewportWidth });
      expect({ path, violations: measured.cspViolations }).toEqual({ path, violations: [] });
      expectClean(path);
    }
  }, 600_000);
});

describe('what a reader does', () => {
  test('the header search box takes a query to the search page, which lists the matching guide', async () => {
    await watch.page.setViewportSize({ width: WIDE, height: 900 });
    await watch.page.goto(`${site.origin}/docs/validation`);
    await watch.page.fill('#site-search', 'jwt verify');
    await Promise.all([
      watch.page.waitForURL(/\/search\?q=jwt\+verify$/),
      watch.page.press('#site-search', 'Enter'),
    ]);
    const first = watch.page.locator('.search-results li h2 a').first();
    expect(await first.getAttribute('href')).toBe('/docs/jwt');
    expect(await watch.page.locator('.search-results mark').count()).toBeGreaterThan(0);
    // The same box works on a phone, where it sits on its own row.
    await watch.page.setViewportSize({ width: NARROW, height: 844 });
    await watch.page.fill('#site-search', 'websocket');
    await Promise.all([
      watch.page.waitForURL(/\/search\?q=websocket$/),
      watch.page.click('.site-header button'),
    ]);
    expect(await watch.page.locator('.search-results li h2 a').first().getAttribute('href')).toBe(
      '/docs/websocket',
    );
    expectClean('/search');
    expect(await watch.cspViolations()).toEqual([]);
  }, 60_000);

  test('the search box suggests pages and exports as you type; arrows and Enter open one', async () => {
    await watch.page.setViewportSize({ width: WIDE, height: 900 });
    await watch.page.goto(`${site.origin}/docs/validation`);
    const box = watch.page.locator('#site-search');
    await box.click();
    await box.pressSequentially('webso');
    const options = watch.page.locator('#site-search-suggestions [role="option"]');
    await options.first().waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await options.first().textContent()).toContain('WebSocket');
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('site-search-suggestions-0');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await Promise.all([watch.page.waitForURL(`${site.origin}/docs/websocket`), box.press('Enter')]);
    // An export of the reference, then Escape closes the list and Enter runs the full search.
    const again = watch.page.locator('#site-search');
    await again.click();
    await again.pressSequentially('createjwtverif');
    await watch.page.locator('#site-search-suggestions [role="option"]').first().waitFor();
    expect(await watch.page.locator('#site-search-suggestions a').first().getAttribute('href')).toBe(
      '/reference/jwt#createjwtverifier',
    );
    await again.press('Escape');
    expect(await watch.page.locator('#site-search-suggestions').isVisible()).toBe(false);
    await Promise.all([watch.page.waitForURL(/\/search\?q=createjwtverif$/), again.press('Enter')]);
    expectClean('/search');
    expect(await watch.cspViolations()).toEqual([]);
  }, 60_000);

  test('the Copy button puts the code block in the clipboard', async () => {
    await watch.page.setViewportSize({ width: WIDE, height: 900 });
    await watch.page.goto(`${site.origin}/docs/testing`);
    const block = watch.page.locator('.code-block').first();
    await block.hover();
    const button = block.locator('.copy-button');
    expect(await button.textContent()).toBe('Copy');
    await button.click();
    await watch.page.waitForFunction(
      () => document.querySelector('.code-block .copy-button')?.textContent === 'Copied',
    );
    const copied = await watch.page.evaluate(() => navigator.clipboard.readText());
    const code = await block.locator('pre code').textContent();
    expect(copied).toBe(code ?? '');
    expect(copied).toContain("import { App, NotFoundError } from 'charter';");
    expect(await watch.page.locator('[role="status"]').textContent()).toBe('Code copied to the clipboard');
    expectClean('/docs/testing');
    expect(await watch.cspViolations()).toEqual([]);
  }, 60_000);

  test('on a phone the navigation opens from the Menu link at the top, and the contents unfold', async () => {
    await watch.page.setViewportSize({ width: NARROW, height: 844 });
    await watch.page.goto(`${site.origin}/docs/jwt`);
    const nav = watch.page.locator('#site-navigation');
    expect(await nav.isVisible()).toBe(false);
    await watch.page.click('.menu-link');
    expect(await nav.isVisible()).toBe(true);
    // Reachable without scrolling: the navigation starts in the first screen.
    const top = await nav.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    expect(top).toBeLessThan(844);
    await watch.page.click('.menu-close');
    expect(await nav.isVisible()).toBe(false);
    const contents = watch.page.locator('.toc-inline');
    expect(await contents.locator('nav a').first().isVisible()).toBe(false);
    await contents.locator('summary').click();
    expect(await contents.locator('nav a').first().isVisible()).toBe(true);
    // At 1280 px the sidebar is always there and the Menu link is not.
    await watch.page.setViewportSize({ width: WIDE, height: 900 });
    expect(await nav.isVisible()).toBe(true);
    expect(await watch.page.locator('.menu-link').isVisible()).toBe(false);
    expectClean('/docs/jwt');
  }, 60_000);

  test('the HTML 404 lists the closest pages', async () => {
    const response = await watch.page.goto(`${site.origin}/docs/jwtt`);
    expect(response?.status()).toBe(404);
    expect(await watch.page.locator('.closest-pages a').first().getAttribute('href')).toBe('/docs/jwt');
    expect(await watch.cspViolations()).toEqual([]);
    // The browser logs the document's own 404; nothing else may fail.
    expect(watch.consoleErrors.filter((error) => !error.includes('404'))).toEqual([]);
    watch.consoleErrors.length = 0;
  }, 60_000);
});

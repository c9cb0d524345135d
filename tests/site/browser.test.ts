/**
 * The site in a real browser: headless Chromium (Debian's, through playwright-core) loads the home
 * page, follows the navigation to a guide and its "next" link, and the run must end without a
 * console error, a CSP violation, a failed request or an error status.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../browser/support/chromium.ts';
import { type PageWatch, watchedPage } from '../browser/support/page-watch.ts';
import { type RunningSite, startSite } from './support.ts';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  site = await startSite();
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

function expectClean(watch: PageWatch, violations: unknown[]): void {
  expect(watch.consoleErrors).toEqual([]);
  expect(violations).toEqual([]);
  expect(watch.failedRequests).toEqual([]);
  expect(watch.responses.filter((r) => !r.startsWith('200 ') && !r.startsWith('304 '))).toEqual([]);
}

describe('the documentation site in Chromium', () => {
  test('loads the home page, follows the navigation and the next link, with no console error', async () => {
    const watch = await watchedPage(browser, 10_000);
    try {
      const { page } = watch;
      await page.goto(`${site.origin}/`);
      expect(await page.title()).toContain('Charter');
      // The stylesheet applied: the page is not unstyled (a CSP or MIME failure would leave it so).
      const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
      expect(font).not.toBe('');
      const navLinks = page.locator('nav a[href^="/docs/"]');
      expect(await navLinks.count()).toBeGreaterThan(5);
      const href = await navLinks.first().getAttribute('href');
      await Promise.all([page.waitForURL(`${site.origin}${href}`), navLinks.first().click()]);
      expect(await page.locator('main h1').count()).toBe(1);
      expect(await page.locator('[aria-current="page"]').count()).toBeGreaterThan(0);
      const next = page.locator('a[rel="next"]');
      expect(await next.count()).toBeGreaterThan(0);
      const nextHref = await next.first().getAttribute('href');
      await Promise.all([page.waitForURL(`${site.origin}${nextHref}`), next.first().click()]);
      expect(page.url()).toBe(`${site.origin}${nextHref}`);
      expect(await page.locator('main h1').count()).toBe(1);
      expectClean(watch, await watch.cspViolations());
    } finally {
      await watch.close();
    }
  }, 30_000);

  test('an error page of the catalogue renders and links back to the guides', async () => {
    const watch = await watchedPage(browser, 10_000);
    try {
      const { page } = watch;
      await page.goto(`${site.origin}/errors/request-timeout`);
      expect(await page.locator('main h1').textContent()).toContain('imeout');
      expect(await page.locator('a[href="/docs"], a[href^="/docs/"]').count()).toBeGreaterThan(0);
      expectClean(watch, await watch.cspViolations());
    } finally {
      await watch.close();
    }
  }, 30_000);

  test('a missing page shows the HTML not-found page, still styled and without errors beyond its 404', async () => {
    const watch = await watchedPage(browser, 10_000);
    try {
      const response = await watch.page.goto(`${site.origin}/docs/no-such-guide`);
      expect(response?.status()).toBe(404);
      expect(await watch.page.locator('nav a[href^="/docs/"]').count()).toBeGreaterThan(5);
      // The browser logs the 404 of the document itself; nothing else may fail.
      expect(watch.consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
      expect(await watch.cspViolations()).toEqual([]);
    } finally {
      await watch.close();
    }
  }, 30_000);
});

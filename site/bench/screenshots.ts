/**
 * `bun site/bench/screenshots.ts [outDir]`: starts the site from source on a free loopback port,
 * opens a few pages in headless Chromium (Debian's, as the browser tests use) at 1280 px and 390 px,
 * and writes full-page PNG screenshots (default `site/bench/screenshots/`, git-ignored) for a person
 * to look at. Not a test: it asserts nothing.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchChromium } from '../../tests/browser/support/chromium.ts';
import { startSite } from '../../tests/site/support.ts';

const PAGES: readonly {
  readonly name: string;
  readonly path: string;
  /** Only at 390 px: the narrow-screen menu. */
  readonly menu?: boolean;
  /** Typed into the header's search box before the shot (the suggestions). */
  readonly type?: string;
}[] = [
  { name: 'home', path: '/' },
  { name: 'guide-routes', path: '/docs/routes-and-hooks' },
  { name: 'guide-errors', path: '/docs/errors-and-limits' },
  { name: 'search', path: '/search?q=rate+limit' },
  { name: 'reference-jwt', path: '/reference/jwt' },
  { name: 'not-found', path: '/docs/jwtt' },
  { name: 'menu-open', path: '/docs/jwt#site-navigation', menu: true },
  { name: 'suggestions', path: '/docs/jwt', type: 'rate' },
];
const WIDTHS = [1280, 390] as const;

const outDir = resolve(process.argv[2] ?? join(import.meta.dir, 'screenshots'));
mkdirSync(outDir, { recursive: true });
const site = await startSite();
const browser = await launchChromium();
try {
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const { name, path, menu, type } of PAGES) {
      if (menu === true && width !== 390) continue;
      await page.goto(`${site.origin}${path}`);
      if (type !== undefined) {
        await page.locator('#site-search').pressSequentially(type);
        await page.locator('#site-search-suggestions [role="option"]').first().waitFor();
      }
      const file = join(outDir, `${name}-${width}.png`);
      // The first screen only for the long pages: what a reader sees on arrival.
      await page.screenshot({ path: file, fullPage: false });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await site.stop();
}

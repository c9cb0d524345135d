/**
 * The browser test harness itself, since the other browser tests are only as good as it: every launch
 * starts Chromium on a new, empty profile (a run never sees a previous run's caches, so each one is
 * the cold start of a machine that was just set up), and PageWatch.networkQuiet waits for a request
 * held open, names it when it never ends, and settles on the page sequence in which Playwright's own
 * `networkidle` is lost for good (the Scalar docs page timed out on it on fresh machines).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium.ts';
import { type PageWatch, QUIET_MS, watchedPage } from './support/page-watch.ts';

const TEST_TIMEOUT_MS = 60_000;
const PAGE_TIMEOUT_MS = 15_000;
/**
 * How long the test page's first script keeps the parser busy: well past QUIET_MS, so that
 * Playwright's 500 ms network-idle timer fires while the script runs even on a loaded machine.
 */
const SPIN_MS = 1_500;

let browser: Browser | undefined;
let launchError: unknown;
/** What the temporary directory held before this file launched its browser. */
let tmpBeforeLaunch: Set<string>;
let releaseHold: () => void = () => {};
const pages: PageWatch[] = [];

/**
 * The page sequence that loses `networkidle` (microsoft/playwright#42598): the document and a script
 * are fully received, the script then runs for SPIN_MS (Playwright records network idle meanwhile),
 * and a request starts and ends before DOMContentLoaded (a synchronous XHR, so that it surely ends
 * before). Scalar's page does the same when its script compiles slowly: the init script's fetch of
 * the OpenAPI document ends before DOMContentLoaded.
 */
const LATE_REQUEST_PAGE = `<!doctype html><title>late request</title><link rel="icon" href="data:,"><body>
<script src="/spin.js"></script>
<script>
  const xhr = new XMLHttpRequest();
  xhr.open('GET', '/data', false);
  xhr.send();
  window.__xhrEndedWhileLoading = xhr.status === 200 && document.readyState === 'loading';
</script>
</body>`;

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/late') return new Response(LATE_REQUEST_PAGE, { headers: html() });
    if (pathname === '/spin.js') {
      const body = `{ const end = performance.now() + ${SPIN_MS}; while (performance.now() < end); }`;
      return new Response(body, { headers: { 'content-type': 'text/javascript' } });
    }
    if (pathname === '/data') return Response.json({ ok: true });
    if (pathname === '/hold') {
      // Answers only when the test releases it: a request the page keeps in flight as long as we like.
      await new Promise<void>((resolve) => {
        releaseHold = resolve;
      });
      return Response.json({ held: true });
    }
    // The empty icon keeps Chromium from asking for /favicon.ico: the tests list every request.
    return new Response('<!doctype html><title>blank</title><link rel="icon" href="data:,">', {
      headers: html(),
    });
  },
});
const origin = `http://127.0.0.1:${server.port}`;

function html(): Record<string, string> {
  return { 'content-type': 'text/html; charset=utf-8' };
}

beforeAll(async () => {
  tmpBeforeLaunch = new Set(readdirSync(tmpdir()));
  try {
    browser = await launchChromium();
  } catch (error) {
    launchError = error;
  }
}, TEST_TIMEOUT_MS);

afterEach(async () => {
  releaseHold();
  for (const watch of pages.splice(0)) await watch.close().catch(() => {});
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await server.stop(true);
}, TEST_TIMEOUT_MS);

/** The browser, or the launch error: a test that needs Chromium fails without it, never skips. */
function requireBrowser(): Browser {
  if (browser === undefined) throw launchError;
  return browser;
}

async function open(on: Browser, url: string): Promise<PageWatch> {
  const watch = await watchedPage(on, PAGE_TIMEOUT_MS);
  pages.push(watch);
  const response = await watch.page.goto(url, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return watch;
}

/** The user data directory `on` runs with, as chrome://version shows it (the profile is a folder in it). */
async function userDataDir(on: Browser): Promise<string> {
  const watch = await watchedPage(on, PAGE_TIMEOUT_MS);
  try {
    await watch.page.goto('chrome://version');
    return dirname(await watch.page.locator('#profile_path').innerText());
  } finally {
    await watch.close();
  }
}

describe('the browser test harness', () => {
  test(
    'each launch runs on a new, empty profile directory that did not exist before it and is gone after it',
    async () => {
      const first = await userDataDir(requireBrowser());
      // Playwright's own temporary profile, not the machine's ~/.config/chromium.
      expect(dirname(first)).toBe(tmpdir());
      expect(basename(first)).toStartWith('playwright_chromiumdev_profile-');
      expect(tmpBeforeLaunch.has(basename(first))).toBe(false);

      const beforeSecond = new Set(readdirSync(tmpdir()));
      const second = await launchChromium();
      let secondDir: string;
      try {
        secondDir = await userDataDir(second);
        expect(secondDir).not.toBe(first);
        expect(beforeSecond.has(basename(secondDir))).toBe(false);
        expect(existsSync(join(secondDir, 'Default'))).toBe(true);
      } finally {
        await second.close();
      }
      // Deleted on close: nothing of this run is left for the next one to start warm from.
      expect(existsSync(secondDir)).toBe(false);
      expect(existsSync(first)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'networkQuiet names a request held open, and settles once it has ended',
    async () => {
      const watch = await open(requireBrowser(), `${origin}/`);
      const sent = watch.page.waitForRequest(`${origin}/hold`);
      await watch.page.evaluate(() => {
        void fetch('/hold');
      });
      await sent;
      expect(watch.inFlight()).toEqual([`GET ${origin}/hold`]);
      const started = Date.now();
      await expect(watch.networkQuiet(2_000)).rejects.toThrow(
        `requests still in flight after 2000 ms: GET ${origin}/hold`,
      );
      // It waited the whole timeout: a request in flight is never mistaken for quiet.
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);

      releaseHold();
      await watch.networkQuiet(PAGE_TIMEOUT_MS);
      expect(watch.inFlight()).toEqual([]);
      expect(watch.responses).toContain(`200 ${origin}/hold`);
      expect(watch.failedRequests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'networkQuiet settles on a page whose last request ends before DOMContentLoaded after a quiet spell',
    async () => {
      const watch = await watchedPage(requireBrowser(), PAGE_TIMEOUT_MS);
      pages.push(watch);
      let dataEnded: number | undefined;
      watch.page.on('requestfinished', (request) => {
        if (request.url() === `${origin}/data`) dataEnded = Date.now();
      });
      const response = await watch.page.goto(`${origin}/late`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      // The page did go through the sequence: its request ended while the document was still loading.
      expect(
        await watch.page.evaluate(
          () => (window as unknown as { __xhrEndedWhileLoading?: boolean }).__xhrEndedWhileLoading,
        ),
      ).toBe(true);

      const waited = Date.now();
      await watch.networkQuiet(PAGE_TIMEOUT_MS);
      // Nothing is in flight after load, so quiet comes QUIET_MS after the last request, not a timeout later.
      expect(Date.now() - waited).toBeLessThan(PAGE_TIMEOUT_MS / 3);
      expect(dataEnded).toBeDefined();
      expect(Date.now() - (dataEnded ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(QUIET_MS);
      expect(watch.responses).toEqual([`200 ${origin}/late`, `200 ${origin}/spin.js`, `200 ${origin}/data`]);
      expect(watch.inFlight()).toEqual([]);
      expect(watch.failedRequests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

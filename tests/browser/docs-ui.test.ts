/**
 * The three docs UIs in a real browser: headless Chromium opens `/docs` of the example app for
 * Scalar, Swagger UI and Redoc, with the assets served cross-origin from their registry packages
 * (`assets` option) under the route's own CSP, and every operation must appear with no console
 * error, CSP violation or failed request. Two negative tests prove the checks bite: a wrong SRI
 * hash and a CSP without the asset origin each stop the page. Chromium is required: when it
 * cannot start, every test here fails with a message saying how to install it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import {
  DEFAULT_DOCS_ASSETS,
  DOCS_ASSET_SOURCES,
  type DocsUi,
  docsContentSecurityPolicy,
  docsPage,
  htmlResponse,
  mountDocs,
} from 'charter/docs';
import type { Browser, Locator, Page } from 'playwright-core';
// Internal to the package (not public API): the UI definitions the expected policy is written from.
import { DOCS_UI_DEFINITIONS } from '../../packages/docs/src/docs-page.ts';
import { type AssetServer, startAssetServer } from './support/asset-server.ts';
import { launchChromium } from './support/chromium.ts';
import { type RunningDocsApp, type SpecOperation, specOperations, startDocsApp } from './support/docs-app.ts';
import { type PageWatch, watchedPage } from './support/page-watch.ts';

const RENDER_TIMEOUT_MS = 10_000;
/**
 * How long `goto` may take to the page's load event, which comes after the UI's script has compiled
 * and run. Scalar's 4.3 MB script has no code cache on a fresh profile: its load took 6.6 s on a
 * 2-core machine under other work and 14 s with the renderer's CPU slowed 4 times (CDP
 * Emulation.setCPUThrottlingRate), so the 10 s used for the other waits is too tight on a fresh machine.
 */
const LOAD_TIMEOUT_MS = 30_000;
/**
 * How long a page may take to go quiet after rendering. The full suite runs test files in parallel on two
 * cores, so this is generous: a slow page only makes the test wait, a page that never settles still fails.
 */
const SETTLE_TIMEOUT_MS = 25_000;
/**
 * Per test, set here rather than relying on the runner's default (5 s): on a loaded machine a page
 * can take longer, and a timed-out test makes bun kill the shared browser under the other tests. It
 * holds a slow load, a slow first render and a slow settle together, so that each of those waits
 * fails first, naming what it waited for.
 */
const TEST_TIMEOUT_MS = LOAD_TIMEOUT_MS + 2 * RENDER_TIMEOUT_MS + SETTLE_TIMEOUT_MS + 15_000;

/**
 * Redoc 2.5.4 always renders an "API docs by Redocly" logo from cdn.redoc.ly (no option turns it
 * off). The page's CSP blocks that third origin on purpose, and Redoc hides the image when it
 * fails; this one blocked image is the only report a Redoc page may produce.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

let browser: Browser | undefined;
let launchError: unknown;
let assets: AssetServer;
const running: RunningDocsApp[] = [];
const pages: PageWatch[] = [];

beforeAll(async () => {
  assets = startAssetServer();
  try {
    browser = await launchChromium();
  } catch (error) {
    launchError = error;
  }
}, TEST_TIMEOUT_MS);

/**
 * Each test's pages and apps end with it: a docs UI left running in the shared browser would keep
 * using CPU (Redoc's search worker, Scalar's rendering) under the tests after it.
 */
afterEach(async () => {
  for (const watch of pages.splice(0)) await watch.close().catch(() => {});
  for (const app of running.splice(0)) await app.stop();
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await assets.stop();
}, TEST_TIMEOUT_MS);

/** The browser, or the launch error: a test that needs Chromium fails without it, never skips. */
function requireBrowser(): Browser {
  if (browser === undefined) throw launchError;
  return browser;
}

function start(mount: Parameters<typeof startDocsApp>[0]): RunningDocsApp {
  const app = startDocsApp(mount);
  running.push(app);
  return app;
}

async function open(url: string): Promise<PageWatch> {
  const watch = await watchedPage(requireBrowser(), RENDER_TIMEOUT_MS);
  pages.push(watch);
  const response = await watch.page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
  expect(response?.status()).toBe(200);
  return watch;
}

/** Where `ui` shows `operation`, and the text it shows there (its summary or path). */
function operationLocator(
  page: Page,
  ui: DocsUi,
  operation: SpecOperation,
): { locator: Locator; text: string } {
  const method = operation.method;
  if (ui === 'swagger-ui') {
    const block = page.locator(`.opblock.opblock-${method}`).filter({
      has: page.locator(`.opblock-summary-path[data-path="${operation.path}"]`),
    });
    return { locator: block, text: operation.path };
  }
  if (ui === 'scalar') {
    const item = page.locator(`[data-sidebar-id$="/${method.toUpperCase()}${operation.path}"]`);
    return { locator: item, text: operation.summary ?? operation.path };
  }
  if (operation.operationId === undefined) throw new Error(`${method} ${operation.path} has no operationId`);
  const item = page.locator(`li[data-item-id="operation/${operation.operationId}"]`);
  return { locator: item, text: operation.summary ?? operation.operationId };
}

/** Polls `done` until it holds; throws after SETTLE_TIMEOUT_MS. */
async function waitUntil(watch: PageWatch, done: () => boolean): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`the page did not settle within ${SETTLE_TIMEOUT_MS} ms`);
    await watch.page.waitForTimeout(50);
  }
}

/** Polls the page's CSP violations until there is one (or the timeout passes). */
async function firstViolations(watch: PageWatch): Promise<Awaited<ReturnType<PageWatch['cspViolations']>>> {
  const deadline = Date.now() + RENDER_TIMEOUT_MS;
  let violations = await watch.cspViolations();
  while (violations.length === 0 && Date.now() < deadline) {
    await watch.page.waitForTimeout(50);
    violations = await watch.cspViolations();
  }
  return violations;
}

/** The policy the docs route of `ui` must send, written out from the pieces it is made of. */
function expectedPolicy(ui: DocsUi): string {
  const definition = DOCS_UI_DEFINITIONS[ui];
  const hashes = [definition.preludeScript, definition.initScript]
    .flatMap((script) => (script === undefined ? [] : [`'${script.hash}'`]))
    .join(' ');
  const origin = assets.origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${origin} ${hashes}`,
    `style-src 'self' ${origin} 'unsafe-inline'`,
    `img-src 'self' data: ${origin}`,
    `font-src 'self' data: ${origin}`,
    "connect-src 'self'",
    ...(ui === 'redoc' ? ['worker-src blob:'] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

describe('docs UIs in Chromium', () => {
  for (const ui of ['scalar', 'swagger-ui', 'redoc'] as const) {
    test(
      `${ui} lists every operation of the example app under its CSP with no error`,
      async () => {
        requireBrowser();
        // The App option `docs`, as a user turns the page on.
        const app = start({ ui, assets: assets.assets[ui] });
        const operations = await specOperations(app.origin);
        expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(
          expect.arrayContaining(['get /todos', 'post /todos', 'get /todos/{id}']),
        );
        // The docs route itself is left out of the document.
        expect(operations.some((op) => op.path === '/docs')).toBe(false);

        const requestsBefore = assets.requests.length;
        const watch = await open(`${app.origin}/docs`);
        const { headers } = await fetch(`${app.origin}/docs`);
        expect(headers.get('content-security-policy')).toBe(expectedPolicy(ui));
        expect(headers.get('content-type')).toBe('text/html; charset=utf-8');

        for (const operation of operations) {
          const { locator, text } = operationLocator(watch.page, ui, operation);
          await locator.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
          expect(await locator.first().innerText()).toContain(text);
        }
        const assetPaths = DOCS_ASSET_SOURCES.filter((source) => source.ui === ui).map(
          (source) => new URL(assets.urlOf(source)).pathname,
        );
        // Every pinned asset fetched (and, for Redoc, its logo refused), then no request in flight: the
        // reports below are complete. Quiet is our own count of the page's requests, not Playwright's
        // `networkidle`, which Scalar's page could lose for good (see PageWatch.networkQuiet).
        await waitUntil(
          watch,
          () =>
            assetPaths.every((path) => assets.requests.slice(requestsBefore).includes(path)) &&
            (ui !== 'redoc' || watch.failedRequests.length > 0),
        );
        await watch.networkQuiet(SETTLE_TIMEOUT_MS);
        // The operations above came from the served document, read by the page itself.
        expect(watch.responses).toContain(`200 ${app.origin}/openapi.json`);

        for (const path of assetPaths) expect(assets.requests.slice(requestsBefore)).toContain(path);
        for (const source of DOCS_ASSET_SOURCES.filter((s) => s.ui === ui)) {
          expect(watch.responses).toContain(`200 ${assets.urlOf(source)}`);
        }

        const violations = await watch.cspViolations();
        if (ui === 'redoc') {
          expect(violations).toEqual([{ directive: 'img-src', blockedURI: REDOC_LOGO, sample: '' }]);
          expect(watch.consoleErrors).toHaveLength(1);
          expect(watch.consoleErrors[0]).toContain(`Loading the image '${REDOC_LOGO}' violates`);
          expect(watch.failedRequests).toEqual([`${REDOC_LOGO} csp`]);
        } else {
          expect(violations).toEqual([]);
          expect(watch.consoleErrors).toEqual([]);
          expect(watch.failedRequests).toEqual([]);
        }
      },
      TEST_TIMEOUT_MS,
    );
  }

  test(
    'Redoc search works in its blob worker',
    async () => {
      requireBrowser();
      const app = start((instance) => mountDocs(instance, { ui: 'redoc', assets: assets.assets.redoc }));
      const watch = await open(`${app.origin}/docs`);
      await watch.page.locator('input[placeholder="Search..."]').fill('getTodo');
      const results = watch.page.locator('[data-role="search:results"] [data-item-id="operation/getTodo"]');
      await results.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      // The logo's refusal, and any error after it, is reported by the time the page is quiet.
      await watch.networkQuiet(SETTLE_TIMEOUT_MS);
      expect(watch.responses.some((line) => line.startsWith('200 blob:'))).toBe(true);
      expect((await watch.cspViolations()).map((v) => v.directive)).toEqual(['img-src']);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a per-request nonce replaces the script hashes and the page still runs',
    async () => {
      requireBrowser();
      const nonces: string[] = [];
      const nextNonce = (): string => {
        const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
        nonces.push(nonce);
        return nonce;
      };
      const app = start((instance) =>
        mountDocs(instance, {
          ui: 'swagger-ui',
          assets: assets.assets['swagger-ui'],
          scriptNonce: nextNonce,
        }),
      );
      const watch = await open(`${app.origin}/docs`);
      const block = watch.page.locator('.opblock-summary-path[data-path="/todos/{id}"]');
      await block.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      expect(nonces).toHaveLength(1);
      // The body is read to its end: a fetch whose body is never read stays in flight in Chromium, and
      // the page would never be quiet.
      const policy = await watch.page.evaluate(async () => {
        const response = await fetch('/docs');
        await response.text();
        return response.headers.get('content-security-policy');
      });
      expect(nonces).toHaveLength(2);
      expect(policy).toContain(`'nonce-${nonces[1]}'`);
      expect(policy).not.toContain("'sha256-");
      // Swagger UI's requests all ended, so an error from any of them would be in the reports by now.
      await watch.networkQuiet(SETTLE_TIMEOUT_MS);
      expect(watch.failedRequests).toEqual([]);
      expect(await watch.cspViolations()).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'an asset whose bytes do not match its integrity hash is blocked and no operation appears',
    async () => {
      requireBrowser();
      const local = assets.assets.scalar.script;
      const wrongHash = DEFAULT_DOCS_ASSETS.redoc.script?.integrity;
      if (local === undefined || wrongHash === undefined) throw new Error('missing default assets');
      const app = start((instance) =>
        mountDocs(instance, { ui: 'scalar', assets: { script: { url: local.url, integrity: wrongHash } } }),
      );
      const watch = await open(`${app.origin}/docs`);
      // The file arrived (so the failure is SRI, not the network) and was then refused.
      expect(watch.responses).toContain(`200 ${local.url}`);
      expect(
        watch.consoleErrors.some((e) => e.includes("Failed to find a valid digest in the 'integrity'")),
      ).toBe(true);
      expect(watch.consoleErrors).toContain('pageerror: Scalar is not defined');
      expect(await watch.page.evaluate(() => typeof (window as { Scalar?: unknown }).Scalar)).toBe(
        'undefined',
      );
      expect(await watch.page.locator('#charter-docs').innerHTML()).toBe('');
      expect(await watch.page.locator('[data-sidebar-id]').count()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a CSP without the asset origin is reported as a violation and no operation appears',
    async () => {
      requireBrowser();
      const page = docsPage('swagger-ui', { specUrl: '/openapi.json', assets: assets.assets['swagger-ui'] });
      const tooStrict = docsContentSecurityPolicy({ ...page.policy, assetOrigins: [] });
      const app = start((instance) => {
        instance.route({
          method: 'GET',
          path: '/docs',
          responses: { 200: { contentType: 'text/html' } },
          acknowledgeNoResponseBodySchema: true,
          openapi: { exclude: true },
          handler: () => htmlResponse(page.html, { contentSecurityPolicy: tooStrict }),
        });
      });
      const watch = await open(`${app.origin}/docs`);
      const violations = await firstViolations(watch);
      const script = assets.assets['swagger-ui'].script?.url;
      expect(violations).toContainEqual({
        directive: 'script-src-elem',
        blockedURI: script ?? '',
        sample: '',
      });
      expect(violations.map((v) => v.directive)).toContain('style-src-elem');
      expect(watch.consoleErrors).toContain('pageerror: SwaggerUIBundle is not defined');
      expect(await watch.page.locator('.opblock').count()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * Opening a page while recording everything that went wrong in it: console errors, CSP violations
 * (a `securitypolicyviolation` listener installed before any page script runs), failed requests,
 * and the responses received, so a test can assert on each; and waiting until no request is in
 * flight, so that those records are complete when the test reads them.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';

/**
 * How long the page must go without a request in flight to count as quiet: the 500 ms Playwright's
 * own `networkidle` uses, long enough for a script to start the next request after the previous one.
 */
export const QUIET_MS = 500;

/** One `securitypolicyviolation` event. */
export interface CspViolation {
  directive: string;
  blockedURI: string;
  sample: string;
}

/** What happened on a watched page. */
export interface PageWatch {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly consoleErrors: string[];
  readonly failedRequests: string[];
  /** `<status> <url>` of every response. */
  readonly responses: string[];
  /** `<method> <url>` of every request sent and not yet finished or failed. */
  inFlight(): string[];
  /**
   * Resolves once no request has been in flight for `quietMs`. Throws after `timeoutMs`, naming the
   * requests still in flight, and at once if the page closes or crashes. A stream the page keeps open
   * (an EventSource, a long poll) counts as in flight: this is not for such pages.
   *
   * Use this, not `page.waitForLoadState('networkidle')`: Playwright 1.65 loses `networkidle` for good
   * when a page goes quiet for 500 ms while a parser-blocking script runs, then starts and finishes a
   * request before DOMContentLoaded (microsoft/playwright#42598, closed as "networkidle is
   * discouraged"). Scalar does exactly that when its 4.3 MB script compiles slowly, as on a machine
   * that was just set up: the page is idle with nothing in flight and the wait times out all the same.
   */
  networkQuiet(timeoutMs: number, quietMs?: number): Promise<void>;
  /** The CSP violations reported so far in the page. */
  cspViolations(): Promise<CspViolation[]>;
  close(): Promise<void>;
}

/** Installed before the page's own scripts (init scripts run outside the page's CSP). */
const VIOLATION_LISTENER = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push({
      directive: event.effectiveDirective,
      blockedURI: event.blockedURI,
      sample: event.sample,
    });
  });
`;

/**
 * A fresh context and page on `browser`, watched from its first script on. Every Playwright wait in
 * it (navigation included) gives up after `timeoutMs`: kept below the test's own timeout, a hung wait
 * fails naming what it waited for instead of the runner timing the whole test out.
 */
export async function watchedPage(browser: Browser, timeoutMs: number): Promise<PageWatch> {
  const context = await browser.newContext();
  context.setDefaultTimeout(timeoutMs);
  const page = await context.newPage();
  await page.addInitScript({ content: VIOLATION_LISTENER });
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  const responses: string[] = [];
  // Every request the page (its frames and workers) sends, from 'request' until 'requestfinished'
  // or 'requestfailed': Playwright sends exactly one of the two for each, redirects included.
  const pending = new Set<Request>();
  let lastChange = Date.now();
  let crashed = false;
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  page.on('crash', () => {
    crashed = true;
  });
  page.on('request', (request) => {
    pending.add(request);
    lastChange = Date.now();
  });
  page.on('requestfinished', (request) => {
    pending.delete(request);
    lastChange = Date.now();
  });
  page.on('requestfailed', (request) => {
    pending.delete(request);
    lastChange = Date.now();
    failedRequests.push(`${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  page.on('response', (response) => responses.push(`${response.status()} ${response.url()}`));
  const inFlight = (): string[] => [...pending].map((request) => `${request.method()} ${request.url()}`);
  const networkQuiet = async (timeoutMs: number, quietMs = QUIET_MS): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (crashed || page.isClosed()) throw new Error('the page crashed or closed while waiting for quiet');
      if (pending.size === 0 && Date.now() - lastChange >= quietMs) return;
      if (Date.now() > deadline) {
        const still = inFlight();
        throw new Error(
          still.length > 0
            ? `requests still in flight after ${timeoutMs} ms: ${still.join(', ')}`
            : `requests kept starting for ${timeoutMs} ms, never ${quietMs} ms apart`,
        );
      }
      await Bun.sleep(25);
    }
  };
  return {
    page,
    context,
    consoleErrors,
    failedRequests,
    responses,
    inFlight,
    networkQuiet,
    cspViolations: () =>
      page.evaluate(() => (window as unknown as { __cspViolations: CspViolation[] }).__cspViolations),
    close: () => context.close(),
  };
}

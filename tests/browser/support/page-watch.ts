/**
 * Opening a page while recording everything that went wrong in it: console errors, CSP violations
 * (a `securitypolicyviolation` listener installed before any page script runs), failed requests,
 * and the responses received, so a test can assert on each.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

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
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) =>
    failedRequests.push(`${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('response', (response) => responses.push(`${response.status()} ${response.url()}`));
  return {
    page,
    context,
    consoleErrors,
    failedRequests,
    responses,
    cspViolations: () =>
      page.evaluate(() => (window as unknown as { __cspViolations: CspViolation[] }).__cspViolations),
    close: () => context.close(),
  };
}

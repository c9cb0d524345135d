/**
 * `bun examples/typed-client.ts`: the page's script, bundled by the example, runs in headless Chromium
 * and drives the API through the typed client (Chromium is required, as in tests/browser).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../browser/support/chromium.ts';
import { type RunningExample, startExample } from './support.ts';

// Chromium starts and the page script is bundled here: on a loaded 2-core CI machine that can take a minute.
setDefaultTimeout(120_000);

describe('examples/typed-client.ts', () => {
  let example: RunningExample;
  let browser: Browser;
  beforeAll(async () => {
    [example, browser] = await Promise.all([startExample('typed-client.ts'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await example?.stop();
  });

  test('prints its URL and what to try', () => {
    expect(example.output()).toContain(`Typed client example listening on ${example.url}`);
    expect(example.output()).toContain(`curl ${example.url}/api/todos`);
  });

  test('GET / and GET /app.js: the page and its bundled script, no inline script allowed', async () => {
    const page = await fetch(`${example.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'",
    );
    expect(await page.text()).toContain('<script src="/app.js" type="module"></script>');
    const script = await fetch(`${example.url}/app.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(1000);
  });

  test('in Chromium, the page adds a to-do and ticks it off through the typed client', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${example.url}/`);
    await page.locator('#status').filter({ hasText: '0 to-do(s)' }).waitFor();

    await page.fill('#title', 'Write the tests');
    await page.click('button');
    await page.locator('#todos li').filter({ hasText: 'Write the tests' }).waitFor();
    await page.locator('#status').filter({ hasText: '1 to-do(s)' }).waitFor();
    await page.check('#todos li input[type=checkbox]');

    // What the page did is what the API holds (the PATCH is on its way once the box is ticked).
    let todos: unknown;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(50)) {
      todos = await (await fetch(`${example.url}/api/todos`)).json();
      if ((todos as Array<{ done: boolean }>)[0]?.done === true) break;
    }
    expect(todos).toEqual([{ id: 1, title: 'Write the tests', done: true }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('the API answers bad input with a 422 problem', async () => {
    const response = await fetch(`${example.url}/api/todos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: '' }),
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
  });
});

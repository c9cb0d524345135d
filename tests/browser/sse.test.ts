/**
 * Server-sent events from a Charter App (served by `@charter/bun`) in a real browser: headless
 * Chromium's `EventSource` receives named events, multi-line data and ids; when the stream ends it
 * reconnects after the `retry` time sending `Last-Event-ID`; a 204 stops it; and a source failure
 * arrives as an `error` event carrying the generic problem document. Chromium is required: when it
 * cannot start, every test here fails with a message saying how to install it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { type BunServer, serve } from '@charter/bun';
import { App } from '@charter/core';
import { type SseMessage, sseResponse } from '@charter/streaming';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium.ts';
import { type PageWatch, watchedPage } from './support/page-watch.ts';

const TEST_TIMEOUT_MS = 60_000;
const PAGE_TIMEOUT_MS = 15_000;

let browser: Browser | undefined;
let launchError: unknown;
let server: BunServer | undefined;
const pages: PageWatch[] = [];
/** The `Last-Event-ID` of each request to /feed, in order (`null` when absent). */
let lastEventIds: (string | null)[] = [];

function feedApp(): App {
  const app = new App({ logger: false });
  // A blank page to run the EventSource in; `connect-src 'self'` lets it reach the feed.
  app.get(
    '/',
    { responses: { 200: { contentType: 'text/html' } }, acknowledgeNoResponseBodySchema: true },
    () =>
      new Response('<!doctype html><title>sse</title>', {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; connect-src 'self'",
        },
      }),
  );
  app.get(
    '/feed',
    {
      responses: {
        200: { contentType: 'text/event-stream' },
        204: { description: 'Nothing more: stop reconnecting' },
      },
      acknowledgeNoResponseBodySchema: true,
    },
    (ctx) => {
      const lastEventId = ctx.request.headers.get('last-event-id');
      lastEventIds.push(lastEventId);
      // WHATWG HTML §9.2.3: a 204 answer makes the EventSource fail the connection for good.
      if (lastEventId === '4') return new Response(null, { status: 204 });
      async function* first(): AsyncGenerator<SseMessage> {
        yield { retry: 100 };
        yield { event: 'greeting', id: '1', data: 'hello\nworld' };
        yield { id: '2', data: 'line one\r\nline two\rline three' };
        yield { event: 'update', id: '3', data: { n: 3, text: 'multi\nline' } };
        // The stream ends here: the browser reconnects after `retry` ms with Last-Event-ID: 3.
      }
      async function* resumed(after: string): AsyncGenerator<SseMessage> {
        yield { event: 'resumed', id: '4', data: `after ${after}` };
      }
      const source = lastEventId === null ? first() : resumed(lastEventId);
      return sseResponse(source, { keepAliveMs: 0, signal: ctx.request.signal });
    },
  );
  app.get(
    '/failing',
    { responses: { 200: { contentType: 'text/event-stream' } }, acknowledgeNoResponseBodySchema: true },
    () => {
      async function* failing(): AsyncGenerator<SseMessage> {
        yield { data: 'ok' };
        throw new Error('a detail that must stay on the server');
      }
      return sseResponse(failing(), { keepAliveMs: 0, onError: () => {} });
    },
  );
  return app;
}

beforeAll(async () => {
  server = await serve(feedApp(), { port: 0, signals: false });
  try {
    browser = await launchChromium();
  } catch (error) {
    launchError = error;
  }
}, TEST_TIMEOUT_MS);

afterEach(async () => {
  for (const watch of pages.splice(0)) await watch.close().catch(() => {});
  lastEventIds = [];
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.close(1000);
}, TEST_TIMEOUT_MS);

/** The browser, or the launch error: a test that needs Chromium fails without it, never skips. */
function requireBrowser(): Browser {
  if (browser === undefined) throw launchError;
  return browser;
}

async function open(): Promise<PageWatch> {
  const watch = await watchedPage(requireBrowser(), PAGE_TIMEOUT_MS);
  pages.push(watch);
  const response = await watch.page.goto(`${server?.url.replace(/\/$/, '')}/`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return watch;
}

interface Seen {
  type: string;
  data: string;
  lastEventId: string;
}

describe('EventSource in Chromium', () => {
  test(
    'receives named events, multi-line data and ids, reconnects with Last-Event-ID, and stops on 204',
    async () => {
      const watch = await open();
      const outcome = await watch.page.evaluate(
        () =>
          new Promise<{ seen: Seen[]; opens: number; closedState: number }>((resolve, reject) => {
            const seen: Seen[] = [];
            let opens = 0;
            const source = new EventSource('/feed');
            const record = (event: MessageEvent): void => {
              seen.push({ type: event.type, data: event.data as string, lastEventId: event.lastEventId });
            };
            for (const type of ['greeting', 'message', 'update', 'resumed'])
              source.addEventListener(type, record);
            source.addEventListener('open', () => {
              opens += 1;
            });
            // After the resumed stream ends, the third connection gets 204: the source closes for good.
            source.addEventListener('error', () => {
              if (source.readyState === EventSource.CLOSED)
                resolve({ seen, opens, closedState: source.readyState });
            });
            setTimeout(() => {
              source.close();
              reject(new Error(`timed out; seen ${JSON.stringify(seen)}`));
            }, 10_000);
          }),
      );
      expect(outcome.seen).toEqual([
        { type: 'greeting', data: 'hello\nworld', lastEventId: '1' },
        { type: 'message', data: 'line one\nline two\nline three', lastEventId: '2' },
        { type: 'update', data: '{"n":3,"text":"multi\\nline"}', lastEventId: '3' },
        { type: 'resumed', data: 'after 3', lastEventId: '4' },
      ]);
      expect(outcome.opens).toBe(2);
      expect(outcome.closedState).toBe(2);
      expect(lastEventIds).toEqual([null, '3', '4']);
      expect(watch.consoleErrors.filter((e) => !e.includes('/feed'))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a failing source reaches the page as an 'error' MessageEvent with the generic problem, never the detail",
    async () => {
      const watch = await open();
      const received = await watch.page.evaluate(
        () =>
          new Promise<{ first: string; problem: string }>((resolve, reject) => {
            let first = '';
            const source = new EventSource('/failing');
            source.addEventListener('message', (event) => {
              first = event.data as string;
            });
            source.addEventListener('error', (event) => {
              // The server's error event is a MessageEvent; the connection's own error is a plain Event.
              if (event instanceof MessageEvent) {
                source.close();
                resolve({ first, problem: event.data as string });
              }
            });
            setTimeout(() => {
              source.close();
              reject(new Error('no error event'));
            }, 10_000);
          }),
      );
      expect(received.first).toBe('ok');
      expect(JSON.parse(received.problem)).toEqual({
        type: 'https://charter.dev/errors/internal',
        title: 'Internal Server Error',
        status: 500,
      });
      expect(received.problem).not.toContain('must stay on the server');
    },
    TEST_TIMEOUT_MS,
  );
});

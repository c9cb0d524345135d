/**
 * The site under hostile Host fields, over a raw socket: each is a 400 problem answered before the
 * site's hooks (request log, rate limit, content negotiation) run, so none of them can trip on a URL
 * that is not absolute. Before this, each such request was a 500 with an error-level stack line.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Logger } from '@charter/core';
import { json } from '../security/fixtures/expect.ts';
import { header, type RawResponse, send } from '../security/fixtures/raw-http.ts';
import { type RunningSite, startSite } from './support.ts';

const lines: Array<{ level: string; msg: string }> = [];
const at =
  (level: string) =>
  (msg: string): void => {
    lines.push({ level, msg });
  };
const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };

let site: RunningSite;
beforeAll(async () => {
  site = await startSite({ logger });
});
afterAll(() => site.stop());

const BAD_HOSTS = ['', 'a@b', 'x/y', 'a\tb', 'localhost:99999', 'h\u00c3\u00a9llo', 'bad host'];

describe('site: the Host header', () => {
  for (const host of BAD_HOSTS) {
    test(`Host ${JSON.stringify(host)}: 400 problem, no error log line`, async () => {
      const before = lines.length;
      const exchange = await send(
        site.server.port,
        `GET /docs HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      const response = exchange.response as RawResponse;
      expect(response.status).toBe(400);
      expect(header(response, 'content-type')).toBe('application/problem+json');
      const problem = json(response) as { type: string; status: number; detail: string };
      expect(problem.type).toBe('https://charter.dev/errors/bad-request');
      expect(problem.status).toBe(400);
      expect(problem.detail).toMatch(/Host/);
      expect(lines.slice(before).filter((line) => line.level === 'error')).toEqual([]);
    });
  }

  test('CONNECT: 501, no error log line', async () => {
    const before = lines.length;
    const exchange = await send(site.server.port, 'CONNECT a.test:443 HTTP/1.1\r\nHost: a.test:443\r\n\r\n');
    expect(exchange.response?.status).toBe(501);
    expect(json(exchange.response as RawResponse)).toMatchObject({ status: 501, title: 'Not Implemented' });
    expect(lines.slice(before).filter((line) => line.level === 'error')).toEqual([]);
  });

  test('HTTP/1.0 without Host: the page is served on the site origin', async () => {
    const exchange = await send(site.server.port, 'GET /llms.txt HTTP/1.0\r\n\r\n');
    const response = exchange.response as RawResponse;
    expect(response.status).toBe(200);
    expect(header(response, 'content-type')).toStartWith('text/plain');
    expect(response.body).toContain('Charter');
  });

  test('a valid Host is served (the good path)', async () => {
    const exchange = await send(
      site.server.port,
      `GET /llms.txt HTTP/1.1\r\nHost: 127.0.0.1:${site.server.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(exchange.response?.status).toBe(200);
    expect(exchange.response?.body).toContain('Charter');
  });
});

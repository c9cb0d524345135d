/**
 * Pagination through a real App (framework spec "Pagination helpers" and the "Cursor length" and "Page
 * size" rows of "Limits"): the query schema answers 422 for bad limits, a bad cursor is a 400 problem,
 * and the `Link` header's `next` links lead through every item exactly once.
 */
import { describe, expect, test } from 'bun:test';
import { App, BadRequestError, encodeBase64Url } from '@charter/core';
import {
  buildPageLinks,
  decodeCursor,
  encodeCursor,
  MAX_CURSOR_LENGTH,
  paginationQuery,
} from '@charter/pagination';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';

const ORIGIN = 'http://charter.local';
const ITEMS = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));

/** What a cursor of this API holds: the id of the last item already sent. */
const Position = type({ after: 'number.integer >= 0' });

const Page = type({ items: type({ id: 'number', name: 'string' }).array(), limit: 'number', 'q?': 'string' });

function itemsApp(): App {
  const app = new App({ logger: false });
  app.get(
    '/items',
    {
      request: { query: paginationQuery() },
      responses: { 200: { body: Page, headers: { link: { description: 'RFC 8288 page links' } } } },
    },
    (ctx) => {
      const { limit, cursor } = ctx.query;
      let after = 0;
      if (cursor !== undefined) {
        const position = Position(decodeCursor(cursor));
        if (position instanceof type.errors) throw new BadRequestError('The cursor does not name a position');
        after = position.after;
      }
      // One row more than asked for tells whether a next page exists.
      const rows = ITEMS.filter((item) => item.id > after).slice(0, limit + 1);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const page = buildPageLinks({
        url: ctx.request.url,
        next: rows.length > limit && last !== undefined ? encodeCursor({ after: last.id }) : null,
        first: cursor !== undefined,
      });
      const q = typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
      if (page.linkHeader !== undefined) ctx.set.headers.set('link', page.linkHeader);
      return { status: 200, body: { items, limit, ...(q === undefined ? {} : { q }) } };
    },
  );
  return app;
}

/** The `rel` to URL map of a `Link` header written by buildLinkHeader (URLs hold no `>`). */
function linksOf(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (header === null) return out;
  for (const match of header.matchAll(/<([^>]*)>; rel="([^"]*)"/g))
    out[match[2] as string] = match[1] as string;
  return out;
}

function tokenOfText(text: string): string {
  return encodeBase64Url(new TextEncoder().encode(text));
}

describe('pagination over HTTP', () => {
  const app = itemsApp();

  test('pages through 45 items with limit 20: three pages, next links followed until absent', async () => {
    const seen: number[] = [];
    const sizes: number[] = [];
    const linkSets: Array<Record<string, string>> = [];
    let url: string | undefined = `${ORIGIN}/items?q=all&limit=20`;
    while (url !== undefined) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = (await res.json()) as { items: Array<{ id: number }>; limit: number; q: string };
      expect(body.limit).toBe(20);
      expect(body.q).toBe('all');
      sizes.push(body.items.length);
      seen.push(...body.items.map((item) => item.id));
      const links = linksOf(res.headers.get('link'));
      linkSets.push(links);
      url = links.next;
      expect(sizes.length).toBeLessThanOrEqual(3);
    }
    expect(sizes).toEqual([20, 20, 5]);
    expect(seen).toEqual(ITEMS.map((item) => item.id));
    // Page one links only onward; the later pages also link back to the first page.
    expect(Object.keys(linkSets[0] ?? {})).toEqual(['next']);
    expect(Object.keys(linkSets[1] ?? {})).toEqual(['next', 'first']);
    expect(linkSets[2]).toEqual({ first: `${ORIGIN}/items?q=all&limit=20` });
  });

  test('the next link keeps the other parameters and carries an encodeCursor token', async () => {
    const res = await app.request('/items?q=all&limit=20');
    const header = res.headers.get('link') as string;
    expect(header).toBe(`<${ORIGIN}/items?q=all&limit=20&cursor=${encodeCursor({ after: 20 })}>; rel="next"`);
  });

  test('uses the default page size of 20 when the query gives none', async () => {
    const res = await app.request('/items');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: unknown[]; limit: number };
    expect([body.items.length, body.limit]).toEqual([20, 20]);
    expect(linksOf(res.headers.get('link')).next).toBe(
      `${ORIGIN}/items?cursor=${encodeCursor({ after: 20 })}`,
    );
  });

  test('the last page (limit + 1 rows not reached) sends no next link', async () => {
    const res = await app.request(`/items?limit=5&cursor=${encodeCursor({ after: 40 })}`);
    const body = (await res.json()) as { items: Array<{ id: number }> };
    expect(body.items.map((item) => item.id)).toEqual([41, 42, 43, 44, 45]);
    expect(res.headers.get('link')).toBe(`<${ORIGIN}/items?limit=5>; rel="first"`);
  });

  test('a page that fits exactly sends no Link header at all', async () => {
    const res = await app.request('/items?limit=100');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items.length).toBe(45);
    expect(res.headers.get('link')).toBeNull();
  });

  for (const limit of ['0', '101', '500']) {
    test(`limit=${limit} is a 422 problem naming the range`, async () => {
      const res = await app.request(`/items?limit=${limit}`);
      const problem = await expectProblem(res, 422, 'validation');
      expect(problem.detail).toBe('query.limit: limit must be an integer from 1 to 100');
      expect(problem.issues).toEqual([
        { in: 'query', path: ['limit'], message: 'limit must be an integer from 1 to 100' },
      ]);
    });
  }

  for (const [name, query] of [
    ['hexadecimal', 'limit=0x10'],
    ['exponent notation', 'limit=1e1'],
    ['a fraction', 'limit=5.0'],
    ['a leading space', 'limit=%205'],
    ['a plus sign', 'limit=%2B5'],
    ['words', 'limit=ten'],
  ] as const) {
    test(`a limit written in ${name} is a 422 problem`, async () => {
      const problem = await expectProblem(await app.request(`/items?${query}`), 422, 'validation');
      expect(problem.issues).toEqual([
        {
          in: 'query',
          path: ['limit'],
          message: 'limit must be an integer from 1 to 100, written in decimal digits',
        },
      ]);
    });
  }

  test('a limit given twice is a 422 problem', async () => {
    const problem = await expectProblem(await app.request('/items?limit=5&limit=6'), 422, 'validation');
    expect(problem.issues).toEqual([
      { in: 'query', path: ['limit'], message: 'limit must be given once, as an integer from 1 to 100' },
    ]);
  });

  test('a cursor longer than MAX_CURSOR_LENGTH is a 422 problem at the query layer', async () => {
    const res = await app.request(`/items?cursor=${'A'.repeat(MAX_CURSOR_LENGTH + 1)}`);
    const problem = await expectProblem(res, 422, 'validation');
    expect(problem.issues).toEqual([
      { in: 'query', path: ['cursor'], message: 'cursor must be at most 4096 characters' },
    ]);
  });

  test('a tampered cursor is a 400 problem that does not echo the token', async () => {
    const token = encodeCursor({ after: 20 });
    const tampered = `${token.slice(0, -2)}$$`;
    const res = await app.request(`/items?cursor=${encodeURIComponent(tampered)}`);
    const problem = await expectProblem(res, 400, 'bad-request');
    expect(problem.detail).toBe(
      `The cursor is not valid base64url: the character at position ${token.length - 1} is outside the alphabet`,
    );
    expect(JSON.stringify(problem)).not.toContain(token.slice(0, -2));
  });

  test('a cursor that is not JSON is a 400 problem', async () => {
    const res = await app.request(`/items?cursor=${tokenOfText('{"after":')}`);
    expect((await expectProblem(res, 400, 'bad-request')).detail).toBe('The cursor is not valid JSON');
  });

  test('a forged cursor of the wrong shape is refused by the handler with a 400', async () => {
    const res = await app.request(`/items?cursor=${encodeCursor({ after: 'x' })}`);
    expect((await expectProblem(res, 400, 'bad-request')).detail).toBe('The cursor does not name a position');
  });

  test('a __proto__ key in a forged cursor is stripped and pollutes nothing', async () => {
    const res = await app.request(
      `/items?limit=2&cursor=${tokenOfText('{"__proto__":{"after":7},"after":3}')}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: Array<{ id: number }> };
    expect(body.items.map((item) => item.id)).toEqual([4, 5]);
    expect(({} as { after?: unknown }).after).toBeUndefined();
  });

  test('a cursor whose only key is __proto__ names no position: 400', async () => {
    const res = await app.request(`/items?cursor=${tokenOfText('{"__proto__":{"after":7}}')}`);
    expect((await expectProblem(res, 400, 'bad-request')).detail).toBe('The cursor does not name a position');
  });

  test('custom parameter names work end to end', async () => {
    const custom = new App({ logger: false });
    const query = paginationQuery({ limitParam: 'per_page', cursorParam: 'page', maxLimit: 10 });
    custom.get('/n', { request: { query }, responses: { 200: {} } }, (ctx) => {
      const start = ctx.query.page === undefined ? 0 : (decodeCursor(ctx.query.page) as number);
      const page = buildPageLinks({
        url: ctx.request.url,
        next: encodeCursor(start + ctx.query.per_page),
        cursorParam: query.options.cursorParam,
      });
      return {
        status: 200,
        body: { start, size: ctx.query.per_page },
        headers: { link: page.linkHeader ?? '' },
      };
    });
    const res = await custom.request('/n?per_page=10&page=MTA');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ start: 10, size: 10 });
    expect(res.headers.get('link')).toBe(`<${ORIGIN}/n?per_page=10&page=MjA>; rel="next"`);
    const tooBig = await expectProblem(await custom.request('/n?per_page=11'), 422, 'validation');
    expect(tooBig.detail).toBe('query.per_page: per_page must be an integer from 1 to 10');
  });
});

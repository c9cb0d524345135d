/** `bun examples/crud-sqlite.ts`: the books API over bun:sqlite, through its whole life cycle. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningExample, startExample } from './support.ts';

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('examples/crud-sqlite.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'charter-crud-'));
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('crud-sqlite.ts', { DB: join(dir, 'books.db') });
  });
  afterAll(async () => {
    await example?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('prints its URL and the requests to try', () => {
    expect(example.output()).toContain(`Books API (SQLite) listening on ${example.url}`);
    expect(example.output()).toContain(`curl ${example.url}/books/1`);
  });

  test('create, read, list, replace, delete', async () => {
    const dune = { title: 'Dune', author: 'Frank Herbert', year: 1965 };
    const created = await fetch(`${example.url}/books`, json(dune));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/books/1');
    expect(await created.json()).toEqual({ id: 1, ...dune });

    const second = await fetch(
      `${example.url}/books`,
      json({ title: 'Emma', author: 'Jane Austen', year: 1815 }),
    );
    expect(second.status).toBe(201);

    const read = await fetch(`${example.url}/books/1`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id: 1, ...dune });

    const page = await fetch(`${example.url}/books?after=1&limit=5`);
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual([{ id: 2, title: 'Emma', author: 'Jane Austen', year: 1815 }]);

    const replaced = await fetch(`${example.url}/books/1`, json({ ...dune, year: 1966 }, 'PUT'));
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({ id: 1, ...dune, year: 1966 });

    const deleted = await fetch(`${example.url}/books/1`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const gone = await fetch(`${example.url}/books/1`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toStartWith('application/problem+json');
    expect(((await gone.json()) as { detail: string }).detail).toBe('No book 1');
  });

  test('a duplicate title is a 409 problem; bad input a 422 naming the field', async () => {
    const emma = { title: 'Emma', author: 'Jane Austen', year: 1815 };
    const duplicate = await fetch(`${example.url}/books`, json(emma));
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as { detail: string }).detail).toBe('A book with that title exists');

    const bad = await fetch(`${example.url}/books`, json({ ...emma, title: 'Persuasion', year: 'soon' }));
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toContain('body.year');

    const badId = await fetch(`${example.url}/books/0`);
    expect(badId.status).toBe(422);
    const missing = await fetch(`${example.url}/books/999`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
  });

  test('the OpenAPI document lists the five operations', async () => {
    const response = await fetch(`${example.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(ids.sort()).toEqual(['createBook', 'deleteBook', 'getBook', 'listBooks', 'replaceBook']);
  });
});

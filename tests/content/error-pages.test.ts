/**
 * The error pages of the documentation site (`content/errors/`) against the framework's catalog of
 * problem types (`ERROR_CODES`): every `type` URI the framework emits, `https://charter.dev/errors/<code>`,
 * names a page, and no page exists for a code the framework does not emit.
 *
 * Each page is parsed with the site's own front-matter parser (so a page that passes here also builds),
 * must be ordered by its status code, name its status and its `type` URI, and show an example problem
 * document. Every JSON example of a Charter problem on these pages must be what Charter renders for that
 * type and status: the same `title` a real error of that class carries.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ERROR_CODES,
  ERROR_TYPE_BASE,
  type ErrorCode,
  httpError,
  type ProblemDetails,
  RequestTimeoutError,
  ValidationError,
} from '@charter/core';
import { parseFrontMatter } from '../../site/content/front-matter.ts';

const ERRORS_DIR = resolve(import.meta.dir, '..', '..', 'content', 'errors');
const INDEX = 'index.md';

/** Every status a problem type may carry: its own, and for the timeout type the alternatives of `requestTimeoutStatus`. */
const STATUSES_OF: ReadonlyMap<string, ReadonlySet<number>> = (() => {
  const map = new Map<string, Set<number>>();
  for (const [status, code] of Object.entries(ERROR_CODES)) {
    const statuses = map.get(code) ?? new Set<number>();
    statuses.add(Number(status));
    map.set(code, statuses);
  }
  for (const status of [503, 504]) map.get('request-timeout')?.add(status);
  return map;
})();

const CATALOG: ReadonlyArray<readonly [number, ErrorCode]> = Object.entries(ERROR_CODES).map(
  ([status, code]) => [Number(status), code] as const,
);

/** What Charter renders for a problem type at a status, built from the real error classes. */
function rendered(code: string, status: number): ProblemDetails {
  if (code === 'validation') return new ValidationError([]).toProblem();
  if (code === 'request-timeout')
    return new RequestTimeoutError({ status: status as 408 | 503 | 504 }).toProblem();
  return httpError({ status }).toProblem();
}

function readPage(file: string): { title: string; order: number; body: string } {
  const parsed = parseFrontMatter(readFileSync(join(ERRORS_DIR, file), 'utf8'), `errors/${file}`);
  return { title: parsed.frontMatter.title, order: parsed.frontMatter.order, body: parsed.body };
}

/** The contents of the page's ```json fences (CommonMark backtick fences, not indented). */
function jsonBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').trim() !== '```json') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && (lines[end] ?? '').trim() !== '```') end++;
    blocks.push(lines.slice(start, end).join('\n'));
    i = end;
  }
  return blocks;
}

/** The JSON examples of a page that are Charter problem documents (their `type` is under the catalog base). */
function problemExamples(markdown: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const block of jsonBlocks(markdown)) {
    const value: unknown = JSON.parse(block);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    if (typeof record.type === 'string' && record.type.startsWith(ERROR_TYPE_BASE)) out.push(record);
  }
  return out;
}

/** A word-bounded occurrence of the number (not part of a longer number such as 4000). */
function namesNumber(text: string, n: number): boolean {
  const digits = String(n);
  let from = 0;
  while (true) {
    const at = text.indexOf(digits, from);
    if (at === -1) return false;
    const before = text[at - 1] ?? ' ';
    const after = text[at + digits.length] ?? ' ';
    if (!(before >= '0' && before <= '9') && !(after >= '0' && after <= '9')) return true;
    from = at + 1;
  }
}

describe('content/errors', () => {
  const files = readdirSync(ERRORS_DIR).filter((name) => name.endsWith('.md'));

  test('has an index page titled Errors, first in its section', () => {
    expect(files).toContain(INDEX);
    const index = readPage(INDEX);
    expect(index.title).toBe('Errors');
    expect(index.order).toBe(0);
  });

  test.each(CATALOG)('status %d has a page for its type %s', (status, code) => {
    expect(files).toContain(`${code}.md`);
    const page = readPage(`${code}.md`);
    expect(page.title.trim()).not.toBe('');
    expect(page.order).toBe(status);
    expect(namesNumber(page.body, status)).toBe(true);
    expect(page.body).toContain(`${ERROR_TYPE_BASE}${code}`);
  });

  test.each(CATALOG)('the page for %d shows an example problem document of its own type', (status, code) => {
    const examples = problemExamples(readPage(`${code}.md`).body);
    const own = examples.filter((example) => example.type === `${ERROR_TYPE_BASE}${code}`);
    expect(own.length).toBeGreaterThan(0);
    expect(own.some((example) => example.status === status)).toBe(true);
  });

  test('no page exists for a code the framework does not emit', () => {
    const known = new Set<string>(Object.values(ERROR_CODES));
    const strays = files.filter((name) => name !== INDEX && !known.has(name.slice(0, -'.md'.length)));
    expect(strays).toEqual([]);
  });

  test('the index links every error page', () => {
    const index = readPage(INDEX).body;
    for (const [, code] of CATALOG) expect(index).toContain(`(./${code}.md)`);
  });

  test('every JSON example on the error pages parses', () => {
    for (const file of files) {
      for (const block of jsonBlocks(readPage(file).body)) {
        expect(() => JSON.parse(block), `a json block of errors/${file}`).not.toThrow();
      }
    }
  });

  test('every example problem document has the type, title and status Charter renders', () => {
    let checked = 0;
    for (const file of files) {
      for (const example of problemExamples(readPage(file).body)) {
        const code = (example.type as string).slice(ERROR_TYPE_BASE.length);
        const statuses = STATUSES_OF.get(code);
        expect(statuses, `errors/${file}: unknown type ${String(example.type)}`).toBeDefined();
        expect(typeof example.status).toBe('number');
        const status = example.status as number;
        expect(statuses?.has(status), `errors/${file}: ${code} is never sent with status ${status}`).toBe(
          true,
        );
        const expected = rendered(code, status);
        expect({ file, type: example.type, title: example.title }).toEqual({
          file,
          type: expected.type,
          title: expected.title,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(CATALOG.length);
  });
});

describe('the error page checks', () => {
  test('namesNumber finds a status only as a whole number', () => {
    expect(namesNumber('answers 404 here', 404)).toBe(true);
    expect(namesNumber('(404)', 404)).toBe(true);
    expect(namesNumber('port 14040', 404)).toBe(false);
    expect(namesNumber('nothing', 404)).toBe(false);
  });

  test('rendered gives the titles of the real classes, not only reason phrases', () => {
    expect(rendered('validation', 422).title).toBe('Validation Failed');
    expect(rendered('request-timeout', 504)).toMatchObject({
      type: `${ERROR_TYPE_BASE}request-timeout`,
      title: 'Request Timeout',
      status: 504,
    });
    expect(rendered('gateway-timeout', 504)).toMatchObject({ type: `${ERROR_TYPE_BASE}gateway-timeout` });
    expect(rendered('payload-too-large', 413).title).toBe('Content Too Large');
  });

  test('problemExamples reads json fences and skips other problems and other languages', () => {
    const page = [
      '```json',
      '{ "type": "https://charter.dev/errors/conflict", "title": "Conflict", "status": 409 }',
      '```',
      '```json',
      '{ "type": "about:blank", "title": "Client Error", "status": 418 }',
      '```',
      '```ts',
      'const x = { type: "https://charter.dev/errors/internal" };',
      '```',
    ].join('\n');
    expect(problemExamples(page)).toEqual([
      { type: 'https://charter.dev/errors/conflict', title: 'Conflict', status: 409 },
    ]);
  });
});

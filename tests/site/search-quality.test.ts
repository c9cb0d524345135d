/**
 * Search quality on the real documentation (issue 23): ten queries a reader would type, each with
 * the page they want, which must come first or second, on the search page and in `search_docs`
 * alike (one index). When a guide is renamed or split, update the wanted page here.
 */
import { describe, expect, test } from 'bun:test';
import { searchIndexOf } from '../../site/search/index-cache.ts';
import { realContent, siteApp } from './support.ts';

/** Query, and the pages that answer it (any of them counts). */
const QUERIES: readonly (readonly [string, readonly string[]])[] = [
  ['rate limit', ['docs/middleware']],
  ['jwt verify', ['docs/jwt']],
  ['websocket', ['docs/websocket']],
  ['openapi yaml', ['docs/openapi']],
  ['typed client', ['docs/typed-client']],
  ['sessions', ['docs/sessions']],
  ['mcp tool', ['docs/tool-server']],
  ['body limit', ['docs/errors-and-limits', 'errors/payload-too-large']],
  ['cors', ['docs/middleware', 'docs/secure-defaults']],
  ['deploy', ['docs/deploy']],
];

describe('search quality', () => {
  test('each of the ten queries finds the wanted page first or second', async () => {
    const index = searchIndexOf(await realContent());
    const ranks = QUERIES.map(([query, wanted]) => {
      const paths = index.search(query, { limit: 10 }).results.map((result) => result.path);
      return { query, rank: paths.findIndex((path) => wanted.includes(path)) + 1, top: paths.slice(0, 3) };
    });
    for (const { query, rank, top } of ranks) {
      expect({ query, top, inFirstTwo: rank >= 1 && rank <= 2 }).toEqual({ query, top, inFirstTwo: true });
    }
  });

  test('the search page shows the same order as the index', async () => {
    const app = await siteApp();
    const index = searchIndexOf(await realContent());
    for (const [query] of QUERIES.slice(0, 3)) {
      const html = await (await app.request(`/search?q=${encodeURIComponent(query)}`)).text();
      const shown = [...html.matchAll(/<h2><a href="\/([^"]+)">/g)].map((match) => match[1]);
      expect(shown.slice(0, 5)).toEqual(
        index.search(query, { limit: 5 }).results.map((result) => result.path),
      );
    }
  });

  test('the generated reference never crowds a guide out of the first place for a topic', async () => {
    const index = searchIndexOf(await realContent());
    for (const [query] of QUERIES) {
      expect({ query, first: index.search(query).results[0]?.path.startsWith('reference/') }).toEqual({
        query,
        first: false,
      });
    }
  });
});

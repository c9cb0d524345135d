/**
 * `GET /search?q=`: the documentation searched for people, ranked by the index the tool server's
 * `search_docs` uses. An HTML page like the others (left out of the OpenAPI document with them,
 * and, like the other HTML pages, outside the machine quota). `q` is read once, at most
 * `MAX_QUERY_LENGTH` characters (the header's box says so with `maxlength`); a longer `q`, or more
 * than one, is a 422 problem naming `query.q`, as a declared query schema would give.
 */
import { type AnyRouteDefinition, ValidationError } from '@charter/core';
import type { ContentSite } from '../content/types.ts';
import { PAGE_CSP } from '../html/document.ts';
import { SEARCH_MAX_LENGTH } from '../html/layout.ts';
import { MAX_QUERY_LENGTH } from '../mcp/search.ts';
import { textHeader } from '../api/header-specs.ts';
import { HTML_TYPE } from '../pages/representation.ts';
import { searchIndexOf } from './index-cache.ts';
import { renderSearchDocument } from './search-page.ts';

/** Results shown on the page. */
export const SEARCH_PAGE_RESULTS = 20;

/** Search answers depend on the query and the content only: caches may keep them briefly. */
export const SEARCH_CACHE_CONTROL = 'public, max-age=300';

if (SEARCH_MAX_LENGTH !== MAX_QUERY_LENGTH) {
  throw new Error('The search box and the search index must agree on the longest query');
}

/** The query text of a request: undefined when absent, else the one `q` (validated). */
export function readQuery(url: string): string {
  const values = new URL(url).searchParams.getAll('q');
  if (values.length > 1) {
    throw new ValidationError([{ in: 'query', path: ['q'], message: 'must be given once' }]);
  }
  const query = (values[0] ?? '').trim();
  if (query.length > MAX_QUERY_LENGTH) {
    throw new ValidationError([
      {
        in: 'query',
        path: ['q'],
        message: `must be at most ${MAX_QUERY_LENGTH} characters (got ${query.length})`,
      },
    ]);
  }
  return query;
}

/** The search page's path. */
export const SEARCH_PATH = '/search';

/** The `GET /search` route over `content`. */
export function searchRoute(options: { readonly content: ContentSite }): AnyRouteDefinition {
  const { content } = options;
  return {
    method: 'GET',
    path: SEARCH_PATH,
    operationId: 'searchPage',
    summary: 'Search the documentation (HTML page for people)',
    tags: ['pages'],
    responses: {
      200: {
        description: 'The search page: the form and the ranked results with highlighted snippets',
        contentType: 'text/html',
        headers: {
          'Cache-Control': textHeader(`Always \`${SEARCH_CACHE_CONTROL}\``),
          'Content-Security-Policy': textHeader('The Content-Security-Policy of the site pages'),
        },
      },
      422: {
        description: '`q` longer than 200 characters, or given more than once (`code`: `validation_failed`)',
        contentType: 'application/problem+json',
      },
    },
    openapi: { exclude: true },
    handler: (ctx) => {
      const query = readQuery(ctx.request.url);
      const found =
        query === '' ? undefined : searchIndexOf(content).search(query, { limit: SEARCH_PAGE_RESULTS });
      return {
        status: 200,
        body: renderSearchDocument(content, query, found),
        headers: [
          ['content-type', HTML_TYPE],
          ['content-security-policy', PAGE_CSP],
          ['cache-control', SEARCH_CACHE_CONTROL],
        ],
      };
    },
  };
}

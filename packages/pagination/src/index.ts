/**
 * @module charter/pagination
 * Cursor pagination: the `limit`/`cursor` query schema, opaque base64url cursors, and RFC 8288 `Link`
 * headers for the next, previous and first pages.
 */
export { decodeCursor, encodeCursor } from './cursor.ts';
export { DEFAULT_MAX_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_PAGE_SIZE, MAX_CURSOR_LENGTH } from './limits.ts';
export { buildLinkHeader, type LinkEntry } from './link-header.ts';
export { buildPageLinks, type PageLinks, type PageLinksOptions, type PageRel } from './page-links.ts';
export {
  type PaginationQueryInput,
  type PaginationQueryOutput,
  type PaginationQuerySchema,
  paginationQuery,
} from './query.ts';
export {
  type PaginationQueryOptions,
  type ResolvedPaginationQueryOptions,
  resolvePaginationQueryOptions,
} from './query-options.ts';

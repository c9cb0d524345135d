/**
 * The three read-only tools of the site's documentation server (site.md, rule 2): `list_docs`,
 * `search_docs` and `get_doc`. Each declares an arktype input and output schema, read-only
 * annotations, and answers `structuredContent` plus a text block: the JSON of the structured
 * content for `list_docs` and `search_docs` (MCP 2025-06-18 "Tools" §Structured Content, for
 * clients that read only text), the page's Markdown for `get_doc`. A request the model can correct
 * (an unknown page, a stale cursor) is a tool error (`McpToolError`, an `isError: true` result,
 * MCP 2025-11-25 "Tools" §Error Handling); arguments that break the schema are JSON-RPC -32602,
 * as charter/mcp answers them before a handler runs.
 */
import { type } from 'arktype';
import { defineMcpTool, type McpTool, McpToolError } from '@charter/mcp';
import type { ContentSite, Page } from '../content/types.ts';
import { contentFingerprint, decodeListCursor, encodeListCursor, MAX_CURSOR_LENGTH } from './cursor.ts';
import { closestPaths, MAX_DOC_ADDRESS_LENGTH, resolveDocAddress } from './doc-path.ts';
import { createSearchIndex, MAX_QUERY_LENGTH, type SearchIndex } from './search.ts';

/**
 * The tool names, in the order `tools/list` gives them. `list_docs`, which needs no argument, comes
 * first: MCP's conformance suite calls the first listed tool with `{}` and expects a result.
 */
export const DOCS_TOOL_NAMES = ['list_docs', 'search_docs', 'get_doc'] as const;

/** A tool of this server (its argument type erased, as the handler's tool list holds them). */
// biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own argument type.
export type DocsTool = McpTool<any>;

/** Options of `createDocsTools`. */
export interface DocsToolsOptions {
  /** The documentation. Required. */
  readonly content: ContentSite;
  /** The site's origin (`https://charter.dev`): results carry absolute URLs on it. Required. */
  readonly origin: string;
  /** The search index. Default: built from `content.pages`. */
  readonly index?: SearchIndex;
}

const READ_ONLY = Object.freeze({ readOnlyHint: true, openWorldHint: false });

/** A `search_docs` result: the page and a highlighted snippet; URLs absolute on the site's origin. */
export const SearchDocsResult = type({
  path: 'string',
  url: 'string',
  markdownUrl: 'string',
  title: 'string',
  score: 'number',
  snippet: 'string',
});

/** Arguments of `search_docs`. */
export const SearchDocsInput = type({
  query: type(`1 <= string <= ${MAX_QUERY_LENGTH}`).describe(
    'Words to look for, e.g. "rate limit headers" or "createMcpHandler"; the last word also matches as a prefix',
  ),
  'limit?': type('1 <= number.integer <= 20').describe('How many results, at most (default 5)'),
});

/** `structuredContent` of `search_docs`. */
export const SearchDocsOutput = type({
  query: 'string',
  matchedAllTerms: type('boolean').describe(
    'false when no page has every word and the results are pages with any of them',
  ),
  results: SearchDocsResult.array(),
});

/** Arguments of `get_doc`. */
export const GetDocInput = type({
  path: type(`1 <= string <= ${MAX_DOC_ADDRESS_LENGTH}`).describe(
    'The page: a path from search_docs or list_docs ("docs/jwt"), its URL ("/docs/jwt", "/docs/jwt.md", "/md/docs/jwt") or its full URL on this site',
  ),
});

/** `structuredContent` of `get_doc`. */
export const GetDocOutput = type({
  path: 'string',
  url: 'string',
  title: 'string',
  description: 'string',
  markdown: 'string',
});

/** Arguments of `list_docs`. */
export const ListDocsInput = type({
  'cursor?': type(`1 <= string <= ${MAX_CURSOR_LENGTH}`).describe(
    'The nextCursor of the previous list_docs answer; leave it out to start at the beginning',
  ),
  'limit?': type('1 <= number.integer <= 100').describe('How many pages, at most (default 50)'),
});

/** A `list_docs` entry. */
export const ListDocsEntry = type({
  path: 'string',
  url: 'string',
  markdownUrl: 'string',
  title: 'string',
  description: 'string',
  section: 'string',
});

/** `structuredContent` of `list_docs`. */
export const ListDocsOutput = type({
  pages: ListDocsEntry.array(),
  total: type('number.integer >= 0').describe('Number of pages on the site'),
  'nextCursor?': type('string').describe('Pass it as cursor to get the next pages; absent on the last one'),
});

const DEFAULT_SEARCH_RESULTS = 5;
const DEFAULT_LIST_PAGES = 50;

function absolute(origin: string, url: string): string {
  return `${origin}${url}`;
}

function bareOrigin(origin: unknown): string {
  if (typeof origin !== 'string' || !URL.canParse(origin)) {
    throw new TypeError(
      'createDocsTools: option "origin" must be an absolute URL such as "https://charter.dev"',
    );
  }
  return new URL(origin).origin;
}

/** The three tools over `content`, in the order of DOCS_TOOL_NAMES. */
export function createDocsTools(options: DocsToolsOptions): readonly DocsTool[] {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createDocsTools needs options: { content, origin, index? }');
  }
  const { content } = options;
  if (typeof content !== 'object' || content === null || !Array.isArray(content.pages)) {
    throw new TypeError('createDocsTools: option "content" must be a ContentSite (buildContent)');
  }
  const origin = bareOrigin(options.origin);
  const index = options.index ?? createSearchIndex(content.pages);
  const pages = content.pages;
  const fingerprint = contentFingerprint(pages);
  const paths = pages.map((page) => page.path);

  const listDocs = defineMcpTool({
    name: 'list_docs',
    title: 'List documentation pages',
    description:
      'Lists every page of the Charter documentation in reading order: path, URLs, title, one-line description and section. Pages through the list with nextCursor.',
    inputSchema: ListDocsInput,
    outputSchema: ListDocsOutput,
    annotations: READ_ONLY,
    handler: ({ cursor, limit }) => {
      let offset = 0;
      if (cursor !== undefined) {
        const decoded = decodeListCursor(cursor, fingerprint, pages.length);
        if (decoded === undefined) {
          // A tool error, not -32602: the arguments match the schema, and the cursor went stale
          // because the site changed. The model reads an isError result and can recover by starting
          // over (MCP 2025-11-25 "Tools" §Error Handling); a JSON-RPC error goes to the client
          // application, which the model may never see.
          throw new McpToolError(
            'This cursor was not issued by this build of the documentation (the site may have been updated since). Call list_docs without a cursor to start again.',
          );
        }
        offset = decoded;
      }
      const size = limit ?? DEFAULT_LIST_PAGES;
      const slice = pages.slice(offset, offset + size).map((page: Page) => ({
        path: page.path,
        url: absolute(origin, page.url),
        markdownUrl: absolute(origin, page.markdownUrl),
        title: page.title,
        description: page.description,
        section: page.section,
      }));
      const next = offset + size;
      const structuredContent: typeof ListDocsOutput.infer = { pages: slice, total: pages.length };
      if (next < pages.length) structuredContent.nextCursor = encodeListCursor(next, fingerprint);
      return { structuredContent };
    },
  });

  const searchDocs = defineMcpTool({
    name: 'search_docs',
    title: 'Search the documentation',
    description:
      'Full-text search over the Charter documentation (titles, headings, descriptions, text). Returns the best pages first, each with a snippet where the matched words are in **bold**. Read a result with get_doc and its path.',
    inputSchema: SearchDocsInput,
    outputSchema: SearchDocsOutput,
    annotations: READ_ONLY,
    handler: ({ query, limit }) => {
      const found = index.search(query, { limit: limit ?? DEFAULT_SEARCH_RESULTS });
      return {
        structuredContent: {
          query,
          matchedAllTerms: found.matchedAllTerms,
          results: found.results.map((result) => ({
            ...result,
            url: absolute(origin, result.url),
            markdownUrl: absolute(origin, result.markdownUrl),
          })),
        },
      };
    },
  });

  const getDoc = defineMcpTool({
    name: 'get_doc',
    title: 'Read a documentation page',
    description:
      'Returns one page of the Charter documentation as Markdown, with its title and description. Accepts a path ("docs/jwt") or the page URL.',
    inputSchema: GetDocInput,
    outputSchema: GetDocOutput,
    annotations: READ_ONLY,
    handler: ({ path: address }) => {
      const resolved = resolveDocAddress(address, origin);
      if (!resolved.ok) throw new McpToolError(resolved.message);
      const page = content.byPath(resolved.path);
      if (page === undefined) {
        const close = closestPaths(resolved.path, paths);
        const named =
          close.length === 0 ? '' : ` Closest paths: ${close.map((p) => JSON.stringify(p)).join(', ')}.`;
        throw new McpToolError(
          `No page has the path ${JSON.stringify(resolved.path.slice(0, 200))}.${named} Use search_docs or list_docs to find a page.`,
        );
      }
      return {
        content: [{ type: 'text', text: page.markdown }],
        structuredContent: {
          path: page.path,
          url: absolute(origin, page.url),
          title: page.title,
          description: page.description,
          markdown: page.markdown,
        },
      };
    },
  });

  return Object.freeze([listDocs, searchDocs, getDoc]);
}

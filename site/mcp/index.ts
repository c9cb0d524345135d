/**
 * The site's documentation tool server: the search index, the three tools, the `/mcp` routes and
 * the server card at `/.well-known/mcp/server-card.json`.
 */
export { contentFingerprint, decodeListCursor, encodeListCursor } from './cursor.ts';
export { closestPaths, type DocAddress, resolveDocAddress } from './doc-path.ts';
export {
  createSearchIndex,
  type SearchIndex,
  type SearchOptions,
  type SearchResponse,
  type SearchResult,
} from './search.ts';
export {
  buildServerCard,
  SERVER_CARD_PATH,
  SERVER_CARD_SCHEMA,
  ServerCard,
  type ServerCardOptions,
  serverCardRoute,
} from './server-card.ts';
export {
  DOCS_MCP_INSTRUCTIONS,
  DOCS_MCP_MAX_BODY_BYTES,
  DOCS_MCP_PATH,
  type DocsMcpServer,
  type DocsMcpServerOptions,
  docsMcpServer,
} from './server.ts';
export { createDocsTools, DOCS_TOOL_NAMES, type DocsTool, type DocsToolsOptions } from './tools.ts';

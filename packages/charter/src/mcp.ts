/**
 * @module charter/mcp — the tool-server module (MCP): `createMcpHandler` serves both protocol eras
 * on one Streamable HTTP endpoint, `mcpRoutes` mounts it on an App. Re-exports `@charter/mcp`.
 */
export * from '@charter/mcp';

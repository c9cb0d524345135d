/**
 * @module charter/a2a — the agent module (A2A 1.0, JSON-RPC binding): `createA2aHandler` serves an agent
 * card and the JSON-RPC endpoint, `a2aRoutes` mounts them on an App, `createA2aClient` talks to other agents.
 * Re-exports `@charter/a2a`.
 */
export * from '@charter/a2a';

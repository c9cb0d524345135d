/**
 * @module charter
 * The core of Charter: the App, routes, hooks, validation with any Standard Schema, and RFC 9457
 * errors. Runtime-neutral: no `node:` imports, so it runs on Bun, Node, Deno and workers.
 */
export * from './app/index.ts';
export * from './auth/index.ts';
export * from './middleware/index.ts';
export * from './net/index.ts';
export { hookList } from './pipeline/hook-layers.ts';
export { recordPayload, responsePayload } from './pipeline/response-payload.ts';
export { REAL_REQUEST, RECEIVED_BODY, userRequest } from './pipeline/light-request.ts';
export {
  type PlannedAnswer,
  plannedAnswer,
  realResponse,
  WIRE_ANSWERS,
} from './pipeline/planned-response.ts';
export { connectNotSupportedError, hostProblem, type ServingAddress } from './pipeline/request-target.ts';
export * from './errors/index.ts';
export { isJsonObject, matchesJsonType } from './json/json-types.ts';
export * from './logger/index.ts';
export { RouteDefinitionError } from './router/index.ts';
export * from './schema/index.ts';
export * from './security/index.ts';
export * from './types/index.ts';
export * from './websocket/index.ts';

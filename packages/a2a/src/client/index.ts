/**
 * The A2A 1.0 agent client (since 1.5.0): `createA2aClient` discovers an agent from its card and calls
 * it over the JSON-RPC binding, https-only, through the outbound request guard by default.
 */
export type { A2aCardOptions, A2aCallOptions, A2aClient } from './client.ts';
export { createA2aClient } from './client.ts';
export {
  A2A_CLIENT_ERROR_REASONS,
  A2aClientError,
  type A2aClientErrorInit,
  type A2aClientErrorReason,
  isA2aClientError,
} from './errors.ts';
export type { A2aMessageInput, A2aSendMessageInput } from './message-input.ts';
export {
  A2A_CLIENT_CARD_MAX_AGE_CAP_MS,
  A2A_CLIENT_DEFAULT_MAX_RESPONSE_BYTES,
  A2A_CLIENT_DEFAULT_TIMEOUT_MS,
  type A2aClientHeaders,
  type A2aClientOptions,
} from './options.ts';
export type { A2aTraceContext, A2aTracePropagation } from './trace.ts';

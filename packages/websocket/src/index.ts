/**
 * @module charter/websocket
 * WebSocket helpers beside `app.ws` (which the core App provides): `wsRateLimit`, a before-upgrade
 * quota; `wsTopics`, topic fan-out through a broker (in memory, or Redis pub/sub with charter/redis);
 * and the RFC 6455 primitives a custom runtime adapter needs (frame parser and encoder, masking,
 * close-code rules, the handshake accept key, the protocol engine and the session).
 */
export { resolveWsRateLimitOptions, wsRateLimit, type WsRateLimitOptions } from './rate-limit.ts';
export {
  memoryWsBroker,
  type WsBroker,
  type WsTopicMessage,
  type WsTopics,
  type WsTopicsOptions,
  wsTopics,
} from './topics.ts';
export {
  applyWsMask,
  assertWsCloseArguments,
  decideWsHandshake,
  decodeWsClosePayload,
  encodeWsClosePayload,
  encodeWsFrame,
  isKnownWsOpcode,
  isValidWsCloseCode,
  isValidWsKey,
  isWsControlOpcode,
  isWsSubprotocolToken,
  resolveWsHandler,
  takeWsUpgrade,
  WS_CLOSE_CODES,
  WS_DEFAULT_MAX_FRAMES_PER_MESSAGE,
  WS_DEFAULTS,
  WS_HANDSHAKE_GUID,
  WS_MAX_CLOSE_REASON_BYTES,
  WS_MAX_CONTROL_PAYLOAD,
  WS_OPCODES,
  WS_VERSION,
  wsAcceptKey,
  WsFrameParser,
  WsMessageAssembler,
  WsProtocol,
  WsProtocolError,
  WsSession,
} from '@charter/core';
export type {
  ResolvedWsHandler,
  WsBeforeUpgrade,
  WsClosePayload,
  WsConnection,
  WsContext,
  WsFrame,
  WsFrameInit,
  WsFrameParserOptions,
  WsHandler,
  WsHandshakeDecision,
  WsMessage,
  WsMessageAssemblerOptions,
  WsOriginOption,
  WsOriginPredicate,
  WsProtocolOptions,
  WsReadyState,
  WsRouteInfo,
  WsSessionOptions,
  WsTransport,
  WsUpgrade,
} from '@charter/core';

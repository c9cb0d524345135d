export {
  assertWsCloseArguments,
  decodeWsClosePayload,
  encodeWsClosePayload,
  isValidWsCloseCode,
  WS_CLOSE_CODES,
  WS_MAX_CLOSE_REASON_BYTES,
  type WsClosePayload,
} from './close-codes.ts';
export {
  applyWsMask,
  encodeWsFrame,
  isKnownWsOpcode,
  isWsControlOpcode,
  WS_MAX_CONTROL_PAYLOAD,
  WS_OPCODES,
  type WsFrame,
  type WsFrameInit,
  WsFrameParser,
  type WsFrameParserOptions,
  WsProtocolError,
} from './frame.ts';
export {
  decideWsHandshake,
  isValidWsKey,
  WS_HANDSHAKE_GUID,
  WS_VERSION,
  wsAcceptKey,
  type WsHandshakeDecision,
} from './handshake.ts';
export {
  WS_DEFAULT_MAX_FRAMES_PER_MESSAGE,
  type WsMessage,
  WsMessageAssembler,
  type WsMessageAssemblerOptions,
} from './message.ts';
export { isWsSubprotocolToken, type ResolvedWsHandler, resolveWsHandler, WS_DEFAULTS } from './options.ts';
export { WsProtocol, type WsProtocolOptions } from './protocol.ts';
export { takeWsUpgrade, type WsRouteInfo, type WsUpgrade } from './route.ts';
export { handleWithoutWebSockets } from './without-sockets.ts';
export { WsSession, type WsSessionOptions, type WsTransport } from './session.ts';
export type {
  WsBeforeUpgrade,
  WsConnection,
  WsContext,
  WsHandler,
  WsOriginOption,
  WsOriginPredicate,
  WsReadyState,
} from './types.ts';

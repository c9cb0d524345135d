/**
 * @module charter/websocket — WebSocket helpers beside `app.ws`: `wsRateLimit` (a before-upgrade quota)
 * and the RFC 6455 frame primitives for custom adapters. Re-exports `@charter/websocket`.
 */
export * from '@charter/websocket';

/**
 * @module charter/websocket — WebSocket helpers beside `app.ws`: `wsRateLimit` (a before-upgrade quota),
 * `wsTopics` (topic fan-out through a broker) and the RFC 6455 frame primitives for custom adapters.
 * Re-exports `@charter/websocket`.
 */
export * from '@charter/websocket';

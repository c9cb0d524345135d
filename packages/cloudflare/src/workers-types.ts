/**
 * The few Workers runtime shapes this adapter uses, declared here so the library needs no
 * `@cloudflare/workers-types` (and type-checks on any runtime). They follow the Workers runtime API:
 * https://developers.cloudflare.com/workers/runtime-apis/ (ExecutionContext, WebSocketPair,
 * `new Response(null, { status: 101, webSocket })`).
 */

/** The third argument of a module worker's `fetch`: what outlives the response. */
export interface WorkerExecutionContext {
  /** Keeps the worker alive until `promise` settles, after the response is sent (logging, caches). */
  waitUntil(promise: Promise<unknown>): void;
  /** On an uncaught exception, forward the request to the origin instead of answering with an error. */
  passThroughOnException(): void;
}

/** The server end of a `WebSocketPair`: a standard WebSocket plus `accept()` (no DOM lib needed). */
export interface WorkerWebSocket {
  accept(): void;
  /** How binary messages arrive; the WHATWG default, `'blob'`, is what recent compatibility dates give. */
  binaryType?: string;
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  readonly readyState: number;
  addEventListener(type: 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: { readonly code: number; readonly reason: string }) => void,
  ): void;
}

/** `new WebSocketPair()`: index 0 goes to the client (in the 101 response), 1 stays in the worker. */
export interface WorkerWebSocketPair {
  readonly 0: WorkerWebSocket;
  readonly 1: WorkerWebSocket;
}

/** The `WebSocketPair` constructor, or undefined outside the Workers runtime. */
export function webSocketPairConstructor(): (new () => WorkerWebSocketPair) | undefined {
  return (globalThis as { WebSocketPair?: new () => WorkerWebSocketPair }).WebSocketPair;
}

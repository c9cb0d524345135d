/**
 * The few members of Deno's global namespace this adapter uses, declared here so the library needs no
 * Deno type package (and type-checks on any runtime). Shapes follow Deno 2's `Deno.serve`,
 * `Deno.upgradeWebSocket` and `Deno.addSignalListener` (https://docs.deno.com/api/deno/).
 */

/** `Deno.NetAddr`: where a TCP server listens, or where a connection comes from. */
export interface DenoNetAddr {
  readonly transport: 'tcp' | 'udp';
  readonly hostname: string;
  readonly port: number;
}

/** The second argument of a `Deno.serve` handler. */
export interface DenoServeHandlerInfo {
  readonly remoteAddr: DenoNetAddr;
  /** Settles when the response has been sent (or the request was cancelled). */
  readonly completed: Promise<void>;
}

/** `Deno.HttpServer`. */
export interface DenoHttpServer {
  readonly addr: DenoNetAddr;
  /** Settles once the server stopped. */
  readonly finished: Promise<void>;
  /** Stops accepting connections and waits for the requests in flight. */
  shutdown(): Promise<void>;
}

/** The options of `Deno.serve` this adapter passes. */
export interface DenoServeTcpOptions {
  port: number;
  hostname: string;
  signal?: AbortSignal;
  onListen?: (addr: DenoNetAddr) => void;
  onError?: (error: unknown) => Response | Promise<Response>;
}

export type DenoServeHandler = (request: Request, info: DenoServeHandlerInfo) => Response | Promise<Response>;

export type DenoSignal = 'SIGINT' | 'SIGTERM';

/** The server end `Deno.upgradeWebSocket` gives: a WHATWG WebSocket (declared here, no DOM lib needed). */
export interface DenoWebSocket {
  binaryType: string;
  readonly bufferedAmount: number;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  send(data: string | ArrayBufferView<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: { readonly code: number; readonly reason: string }) => void,
  ): void;
}

/** What this adapter reads of `globalThis.Deno`. */
export interface DenoNamespace {
  serve(options: DenoServeTcpOptions, handler: DenoServeHandler): DenoHttpServer;
  upgradeWebSocket(
    request: Request,
    options?: { protocol?: string; idleTimeout?: number },
  ): { socket: DenoWebSocket; response: Response };
  addSignalListener(signal: DenoSignal, handler: () => void): void;
  removeSignalListener(signal: DenoSignal, handler: () => void): void;
  exit(code?: number): never;
}

/** `globalThis.Deno`, or an error saying this adapter needs Deno. */
export function denoNamespace(): DenoNamespace {
  const deno = (globalThis as { Deno?: DenoNamespace }).Deno;
  if (deno === undefined || typeof deno.serve !== 'function') {
    throw new Error(
      'charter/deno runs on Deno (globalThis.Deno.serve was not found); use charter/bun or charter/node on those runtimes',
    );
  }
  return deno;
}

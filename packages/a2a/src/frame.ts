/** What every A2A method is given about the request being served. */
import type { A2aHost, ResolvedA2aHandlerOptions } from './options.ts';

export interface RpcFrame {
  readonly options: ResolvedA2aHandlerOptions;
  readonly host: A2aHost;
  /** The resolved task owner; undefined when no task store is configured. */
  readonly owner: string | undefined;
  /** Extension URIs from `A2A-Extensions`. */
  readonly extensions: readonly string[];
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  readonly exposeInternalErrors: boolean;
  /** Tasks of this handler running in the background (`returnImmediately`), to abort on CancelTask. */
  readonly running: Map<string, AbortController>;
}

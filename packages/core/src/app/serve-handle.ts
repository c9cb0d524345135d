/**
 * The handle every listening adapter's `serve()` returns (charter/bun, charter/node, charter/deno): the
 * reference says `serve()` "returns `{ port, close }`", so it is usable at once, without awaiting, and
 * still awaitable for code written as `await serve(app)`.
 */
import type { Logger } from '../logger/index.ts';

/** What a listening server offers once it listens. */
export interface ListeningServer {
  readonly port: number;
  readonly hostname: string;
  readonly url: string;
  close(timeoutMs?: number): Promise<void>;
}

/**
 * A server's handle before and after it listens: the server's own fields (each throws until it
 * listens, saying to await `ready`), `close()` at any time (before listening it waits for the start,
 * then stops), `ready`, and `then`, so `await` gives the listening server.
 */
export type ServeHandle<S extends ListeningServer> = S &
  PromiseLike<S> & {
    /** Settles once the server listens, or rejects when it cannot start. */
    readonly ready: Promise<S>;
  };

const NOT_LISTENING = 'The server is not listening yet: await serve(...) or handle.ready first';

/**
 * Makes the handle of a server that `ready` starts. A failed start is logged as `failure` and reaches
 * the caller through `ready` or `await`, never as an unhandled rejection (which would end a process
 * under `crashOnUnhandledRejection`). `fields` names the server's members read through the handle
 * besides `port`, `hostname` and `url` (such as the runtime's `server`).
 */
export function serveHandle<S extends ListeningServer>(
  ready: Promise<S>,
  logger: Logger,
  failure: string,
  fields: readonly (keyof S & string)[] = [],
): ServeHandle<S> {
  ready.catch((error: unknown) => logger.error(failure, { error }));
  let started: S | undefined;
  ready.then(
    (server) => {
      started = server;
    },
    () => {},
  );
  const handle = {
    ready,
    close: (timeoutMs?: number) =>
      ready.then(
        (server) => server.close(timeoutMs),
        () => undefined,
      ),
    // biome-ignore lint/suspicious/noThenProperty: the handle is awaitable on purpose (`await serve(app)`).
    then: <A = S, B = never>(
      onFulfilled?: ((server: S) => A | PromiseLike<A>) | null,
      onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ) => ready.then(onFulfilled, onRejected),
  };
  for (const name of ['port', 'hostname', 'url', ...fields]) {
    Object.defineProperty(handle, name, {
      enumerable: true,
      get: () => {
        if (started === undefined) throw new Error(NOT_LISTENING);
        return started[name as keyof S];
      },
    });
  }
  return handle as unknown as ServeHandle<S>;
}

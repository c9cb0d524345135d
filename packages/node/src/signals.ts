/**
 * SIGINT/SIGTERM wiring for graceful shutdown. Listeners are removed as soon as shutdown starts, so a
 * second signal gets the runtime's default behaviour (terminate now) and repeated serve()/close()
 * cycles leave no listener behind.
 */

/** The signals that mean "stop serving": Ctrl-C, and what process managers and orchestrators send. */
export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/**
 * After a signal-triggered shutdown has drained, the process exits on its own once nothing else holds
 * the event loop; if something still does after this long (a pool nobody closed), it exits anyway.
 */
const EXIT_GRACE_MS = 1000;

/** Calls `onSignal` once, on the first SIGINT or SIGTERM; returns the function that removes the listeners. */
export function onShutdownSignal(onSignal: (signal: ShutdownSignal) => void): () => void {
  let removed = false;
  const listeners = SHUTDOWN_SIGNALS.map((signal) => {
    const listener = (): void => {
      remove();
      onSignal(signal);
    };
    process.on(signal, listener);
    return { signal, listener };
  });
  const remove = (): void => {
    if (removed) return;
    removed = true;
    for (const { signal, listener } of listeners) process.off(signal, listener);
  };
  return remove;
}

/** Ends the process after a signal-triggered shutdown: 0 when it drained cleanly, 1 when it failed. */
export function exitAfterShutdown(failed: boolean): void {
  if (failed) process.exitCode = 1;
  // Unref'd: it fires only if something else keeps the process alive past the grace period.
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}

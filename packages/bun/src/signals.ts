const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Runs `onSignal` once on SIGINT or SIGTERM; returns a function that removes the listeners. */
export function onTerminationSignals(onSignal: (signal: string) => void | Promise<void>): () => void {
  let fired = false;
  const listener = (signal: string): void => {
    if (fired) return;
    fired = true;
    void onSignal(signal);
  };
  for (const signal of SIGNALS) process.on(signal, listener);
  return () => {
    for (const signal of SIGNALS) process.off(signal, listener);
  };
}

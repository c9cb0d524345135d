import type { DenoNamespace, DenoSignal } from './deno-global.ts';

const SIGNALS: readonly DenoSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs `onSignal` once, on the first SIGINT or SIGTERM (Ctrl-C; what process managers and orchestrators
 * send); returns the function that removes the listeners. They are removed as soon as one fires, so a
 * second signal gets Deno's default behaviour: stop now.
 */
export function onTerminationSignals(
  deno: DenoNamespace,
  onSignal: (signal: DenoSignal) => void,
): () => void {
  let removed = false;
  const listeners = SIGNALS.map((signal) => {
    const listener = (): void => {
      remove();
      onSignal(signal);
    };
    deno.addSignalListener(signal, listener);
    return { signal, listener };
  });
  const remove = (): void => {
    if (removed) return;
    removed = true;
    for (const { signal, listener } of listeners) deno.removeSignalListener(signal, listener);
  };
  return remove;
}

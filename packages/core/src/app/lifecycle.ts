import type { Logger } from '../logger/index.ts';

export interface ShutdownInfo {
  reason: string;
  timeoutMs: number;
}

export type ShutdownListener = (info: ShutdownInfo) => void | Promise<void>;
export type CloseListener = () => void | Promise<void>;

export type LifecycleState = 'serving' | 'draining' | 'closed';

/**
 * Tracks in-flight requests and runs the stop sequence: shutdown listeners, drain (bounded by a
 * timeout), then close listeners in reverse order of registration.
 */
export class Lifecycle {
  state: LifecycleState = 'serving';
  inFlight = 0;
  readonly shutdownListeners: ShutdownListener[];
  readonly closeListeners: CloseListener[];
  readonly #logger: Logger;
  #drained: (() => void) | undefined;
  #stopping: Promise<void> | undefined;

  /** `listeners`: the arrays every scope of the App registers into (the registry's). */
  constructor(
    logger: Logger,
    listeners: { shutdownListeners: ShutdownListener[]; closeListeners: CloseListener[] } = {
      shutdownListeners: [],
      closeListeners: [],
    },
  ) {
    this.#logger = logger;
    this.shutdownListeners = listeners.shutdownListeners;
    this.closeListeners = listeners.closeListeners;
  }

  started(): void {
    this.inFlight++;
  }

  finished(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.#drained !== undefined) this.#drained();
  }

  shutdown(timeoutMs: number, reason: string): Promise<void> {
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new TypeError(
        `shutdown(): timeoutMs must be a finite non-negative number, got ${String(timeoutMs)}`,
      );
    }
    this.#stopping ??= this.#stop(timeoutMs, reason);
    return this.#stopping;
  }

  async #stop(timeoutMs: number, reason: string): Promise<void> {
    this.state = 'draining';
    for (const listener of this.shutdownListeners) {
      try {
        await listener({ reason, timeoutMs });
      } catch (error) {
        this.#logger.error('An onShutdown listener threw', { error });
      }
    }
    if (this.inFlight > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const drained = new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([drained, expired]);
      clearTimeout(timer);
      if (this.inFlight > 0) {
        this.#logger.warn('Shutdown timeout reached with requests still in flight', {
          inFlight: this.inFlight,
          reason,
        });
      }
    }
    for (const listener of [...this.closeListeners].reverse()) {
      try {
        await listener();
      } catch (error) {
        this.#logger.error('An onClose listener threw', { error });
      }
    }
    this.state = 'closed';
  }
}

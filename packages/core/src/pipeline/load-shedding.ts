import { ServiceUnavailableError } from '../errors/index.ts';
import type { LoadSheddingOptions } from '../app/security-options.ts';

/**
 * Refuses new requests while the process is overloaded, before any of their work starts: a 503
 * with `Retry-After` (RFC 9110 §15.6.4, §10.2.3) is cheaper for everyone than a request that
 * queues behind the backlog and times out anyway.
 *
 * Event-loop delay is sampled with a timer: it is armed every `sampleIntervalMs` and the delay is
 * how late it fires. The recent delay is a decaying maximum (each sample keeps three quarters of
 * the previous value, or its own delay if larger), so one long stall sheds at once and the
 * server recovers over a few samples rather than flapping on the first quiet one. The timer is unref'd (it never
 * keeps a process alive), started on the first request and stopped by `stop()` at shutdown.
 */
export class LoadShedder {
  readonly #options: Readonly<Required<LoadSheddingOptions>>;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  #expectedAt = 0;
  #recentDelay = 0;
  #stopped = false;

  constructor(options: Readonly<Required<LoadSheddingOptions>>) {
    this.#options = options;
  }

  /** The event-loop delay the shedder currently sees, in ms. */
  get eventLoopDelayMs(): number {
    return this.#recentDelay;
  }

  /** Throws a 503 when the process is overloaded; `inFlight` counts requests already running. */
  check(inFlight: number): void {
    if (this.#timer === undefined && !this.#stopped) this.#arm();
    const { maxInFlight, maxEventLoopDelayMs, retryAfterSeconds } = this.#options;
    let reason: string | undefined;
    if (maxInFlight > 0 && inFlight >= maxInFlight) {
      reason = `${inFlight} requests are already in flight (limit ${maxInFlight})`;
    } else if (maxEventLoopDelayMs > 0 && this.eventLoopDelayMs > maxEventLoopDelayMs) {
      reason = `the event loop is ${Math.round(this.eventLoopDelayMs)} ms behind (limit ${maxEventLoopDelayMs} ms)`;
    }
    if (reason !== undefined) {
      throw new ServiceUnavailableError({
        detail: `The server is overloaded: ${reason}; retry later`,
        retryAfterSeconds,
      });
    }
  }

  /** Stops sampling (shutdown). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    const interval = this.#options.sampleIntervalMs;
    this.#expectedAt = performance.now() + interval;
    this.#timer = setTimeout(this.#sample, interval);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #sample = (): void => {
    const delay = Math.max(0, performance.now() - this.#expectedAt);
    this.#recentDelay = Math.max(delay, this.#recentDelay * 0.75);
    this.#timer = undefined;
    if (!this.#stopped) this.#arm();
  };
}

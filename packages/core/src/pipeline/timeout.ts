import { RequestTimeoutError } from '../errors/index.ts';
import type { Exchange } from './context.ts';

/** A request being watched: when its deadline passes, `expire` answers it with the timeout problem. */
interface Watched {
  readonly exchange: Exchange;
  readonly deadline: number;
  readonly expire: (error: RequestTimeoutError) => void;
}

/**
 * The request timeout of one app. Every request shares the same `ms`, so deadlines arrive in the
 * order requests started: the watched set (insertion-ordered) is also sorted by deadline, and one
 * timer armed for the earliest deadline serves them all. A request costs a set insert and delete
 * instead of arming and clearing a timer of its own.
 */
export class RequestTimeouts {
  readonly #ms: number;
  readonly #status: 408 | 503 | 504;
  readonly #watched = new Set<Watched>();
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(ms: number, status: 408 | 503 | 504) {
    this.#ms = ms;
    this.#status = status;
  }

  /**
   * Races the request's work against the deadline and settles it with `answer` (its Response) or
   * `recover` (its error). On expiry the exchange's signal aborts (so handlers watching
   * `ctx.request.signal` stop) and `recover` receives the timeout error; whatever the abandoned
   * work does later is ignored. The continuations are taken here, rather than chained by the
   * caller, so a request costs one promise for the race and none after it.
   */
  watch(
    work: Promise<Response>,
    exchange: Exchange,
    answer: (response: Response) => Response | Promise<Response>,
    recover: (error: unknown) => Response | Promise<Response>,
  ): Promise<Response> {
    return new Promise<Response>((resolve) => {
      let settled = false;
      const settle = (outcome: () => Response | Promise<Response>): void => {
        if (settled) return;
        settled = true;
        resolve(outcome());
      };
      const watched: Watched = {
        exchange,
        deadline: performance.now() + this.#ms,
        expire: (error) => settle(() => recover(error)),
      };
      this.#watched.add(watched);
      this.#timer ??= setTimeout(this.#sweep, this.#ms);
      work.then(
        (response) => {
          this.#watched.delete(watched);
          settle(() => answer(response));
        },
        (error: unknown) => {
          this.#watched.delete(watched);
          settle(() => recover(error));
        },
      );
    });
  }

  /** Expires every request past its deadline, then sleeps until the next deadline. */
  readonly #sweep = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (const watched of this.#watched) {
      if (watched.deadline > now) {
        this.#timer = setTimeout(this.#sweep, Math.ceil(watched.deadline - now));
        return;
      }
      this.#watched.delete(watched);
      this.#expire(watched);
    }
  };

  #expire({ exchange, expire }: Watched): void {
    const error = new RequestTimeoutError({
      status: this.#status,
      detail: `The request did not complete within ${this.#ms} ms`,
    });
    exchange.timedOut = true;
    exchange.abort(error);
    expire(error);
  }
}

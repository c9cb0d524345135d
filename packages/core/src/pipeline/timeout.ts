import { RequestTimeoutError } from '../errors/index.ts';
import type { Exchange } from './context.ts';

/** How a watched request is answered: from its Response, or from its error (the timeout's included). */
export type Answer<H> = (host: H, exchange: Exchange, response: Response) => Response | Promise<Response>;
export type Recover<H> = (host: H, exchange: Exchange, error: unknown) => Response | Promise<Response>;

/** A request being watched: when its deadline passes, it is answered with the timeout problem. */
class Watched<H> {
  settled = false;
  resolve: (response: Response | Promise<Response>) => void = unresolved;
  /** Neighbours in the app's list of watched requests (oldest first). */
  previous: Watched<H> | undefined = undefined;
  next: Watched<H> | undefined = undefined;
  constructor(
    readonly exchange: Exchange,
    readonly deadline: number,
    readonly host: H,
    readonly answer: Answer<H>,
    readonly recover: Recover<H>,
  ) {}
}

/**
 * The timer never keeps a process alive on its own: the work it watches does (a socket, a pending
 * fetch), and when nothing else is left the process may exit. Workers' timers are plain numbers.
 */
function unrefTimer(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => unknown }).unref?.();
  return timer;
}

/** True for a timer that was unref'd (Node, Bun): it cannot hold the process open. */
function isUnrefd(timer: ReturnType<typeof setTimeout>): boolean {
  return typeof (timer as { unref?: unknown }).unref === 'function';
}

function unresolved(): void {
  throw new Error('A watched request was settled before its promise existed');
}

/**
 * The request timeout of one app. Every request shares the same `ms`, so deadlines arrive in the
 * order requests started: a list with the newest request appended at its tail is also sorted by
 * deadline, and one timer armed for the earliest deadline serves them all. A request costs a link
 * and an unlink (a few field writes, no hashing) instead of arming and clearing a timer of its own.
 */
export class RequestTimeouts<H = unknown> {
  readonly #ms: number;
  readonly #status: 408 | 503 | 504;
  #oldest: Watched<H> | undefined = undefined;
  #newest: Watched<H> | undefined = undefined;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(ms: number, status: 408 | 503 | 504) {
    this.#ms = ms;
    this.#status = status;
  }

  /**
   * Races the request's work against the deadline and settles it with `answer` (its Response) or
   * `recover` (its error), each called with `host` and the exchange. On expiry the exchange's
   * signal aborts (so handlers watching `ctx.request.signal` stop) and `recover` receives the
   * timeout error; whatever the abandoned work does later is ignored. The continuations are taken
   * here, rather than chained by the caller, so a request costs one promise for the race and none
   * after it; they are plain functions given their arguments, so no closure is made per request.
   */
  watch(
    work: Promise<Response>,
    exchange: Exchange,
    host: H,
    answer: Answer<H>,
    recover: Recover<H>,
  ): Promise<Response> {
    const watched = new Watched<H>(exchange, performance.now() + this.#ms, host, answer, recover);
    const race = new Promise<Response>((resolve) => {
      watched.resolve = resolve;
    });
    this.#link(watched);
    this.#timer ??= unrefTimer(setTimeout(this.#sweep, this.#ms));
    work.then(
      (response) => this.#finished(watched, response),
      (error: unknown) => this.#failed(watched, error),
    );
    return race;
  }

  #link(watched: Watched<H>): void {
    const newest = this.#newest;
    watched.previous = newest;
    if (newest === undefined) this.#oldest = watched;
    else newest.next = watched;
    this.#newest = watched;
  }

  #unlink(watched: Watched<H>): void {
    const { previous, next } = watched;
    if (previous === undefined) {
      // Already unlinked (expired), or the oldest.
      if (this.#oldest !== watched) return;
      this.#oldest = next;
    } else previous.next = next;
    if (next === undefined) this.#newest = previous;
    else next.previous = previous;
    watched.previous = undefined;
    watched.next = undefined;
  }

  /** True while the shared timer is armed (a request is being watched, or an idle unref'd timer is left). */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** True while the shared timer could keep the process alive (armed, and not unref'd). */
  get holdsProcess(): boolean {
    return this.#timer !== undefined && !isUnrefd(this.#timer);
  }

  /**
   * Takes a finished request off the list. When the last one leaves, an unref'd timer (Node, Bun) is
   * left armed: it cannot hold the process open (a script that made one request still exits at once),
   * and when it fires on an empty list it disarms itself. Clearing it here and arming a new one for
   * the next request cost a timer per request whenever requests do not overlap (most of a server's
   * requests: a body read settles within the task that started it). A timer that cannot be unref'd
   * (Deno, Workers: plain numbers) is cleared at once, so an idle app holds none.
   */
  #release(watched: Watched<H>): void {
    this.#unlink(watched);
    const timer = this.#timer;
    if (this.#oldest === undefined && timer !== undefined && !isUnrefd(timer)) {
      clearTimeout(timer);
      this.#timer = undefined;
    }
  }

  #finished(watched: Watched<H>, response: Response): void {
    this.#release(watched);
    if (watched.settled) return;
    watched.settled = true;
    watched.resolve(watched.answer(watched.host, watched.exchange, response));
  }

  #failed(watched: Watched<H>, error: unknown): void {
    this.#release(watched);
    if (watched.settled) return;
    watched.settled = true;
    watched.resolve(watched.recover(watched.host, watched.exchange, error));
  }

  /** Expires every request past its deadline, then sleeps until the next deadline. */
  readonly #sweep = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (let watched = this.#oldest; watched !== undefined; watched = this.#oldest) {
      if (watched.deadline > now) {
        this.#timer = unrefTimer(setTimeout(this.#sweep, Math.ceil(watched.deadline - now)));
        return;
      }
      this.#unlink(watched);
      this.#expire(watched);
    }
  };

  #expire(watched: Watched<H>): void {
    if (watched.settled) return;
    watched.settled = true;
    const error = new RequestTimeoutError({
      status: this.#status,
      detail: `The request did not complete within ${this.#ms} ms`,
    });
    const exchange = watched.exchange;
    exchange.timedOut = true;
    exchange.abort(error);
    watched.resolve(watched.recover(watched.host, watched.exchange, error));
  }
}

import { RequestTimeoutError } from '../errors/index.ts';
import type { Exchange } from './context.ts';

/**
 * Races the request's work against `ms`. On expiry the exchange's signal aborts (so handlers
 * watching `ctx.request.signal` stop) and the request is answered with the timeout problem.
 */
export function withTimeout(
  work: Promise<Response>,
  ms: number,
  status: 408 | 503 | 504,
  exchange: Exchange,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new RequestTimeoutError({
        status,
        detail: `The request did not complete within ${ms} ms`,
      });
      exchange.timedOut = true;
      exchange.abort(error);
      // The late outcome of the abandoned work is settled here, never reported as unhandled.
      work.catch(() => {});
      reject(error);
    }, ms);
    work.then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

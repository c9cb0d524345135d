/**
 * One HTTP exchange of the A2A client, from sending the request to the last byte of the body, under a
 * single deadline (`timeoutMs`) and byte cap (`maxResponseBytes`). Redirects are never followed
 * (`redirect: 'manual'`): the card names the endpoint, and a redirect would step around the origin rule
 * of `url-policy.ts`; a 3xx answer therefore surfaces as an `http-status` error.
 */
import { type FetchFunction, isSsrfError } from '@charter/core';
import { readBodyLimited, untilAborted } from './body.ts';
import { A2aClientError } from './errors.ts';

/** The transport settings an exchange runs under. */
export interface ExchangeSettings {
  readonly fetch: FetchFunction;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** A complete answer: status, headers and the whole body. */
export interface ExchangeResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

class Timeout extends Error {}

function failure(
  error: unknown,
  what: string,
  settings: ExchangeSettings,
  caller?: AbortSignal,
): A2aClientError {
  if (error instanceof A2aClientError) return error;
  if (error instanceof Timeout) {
    return new A2aClientError(`A2A ${what} timed out after ${settings.timeoutMs} ms (timeoutMs)`, {
      reason: 'timeout',
    });
  }
  if (caller?.aborted) {
    return new A2aClientError(`A2A ${what} was aborted by the caller's signal`, {
      reason: 'aborted',
      cause: caller.reason,
    });
  }
  if (isSsrfError(error)) {
    return new A2aClientError(`A2A ${what} blocked by the outbound request guard: ${error.message}`, {
      reason: 'blocked',
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new A2aClientError(`A2A ${what} failed: ${detail}`, { reason: 'network', cause: error });
}

/**
 * Sends `init` to `url` and reads the answer. Rejects with an `A2aClientError`: `timeout`, `aborted`,
 * `blocked` (the guard's `SsrfError` as cause), `network` or `too-large`.
 */
export async function exchange(
  settings: ExchangeSettings,
  url: URL,
  init: RequestInit,
  what: string,
  caller?: AbortSignal,
): Promise<ExchangeResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Timeout()), settings.timeoutMs);
  const onCallerAbort = (): void => controller.abort(caller?.reason);
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = controller.signal;
  try {
    signal.throwIfAborted();
    const response = await untilAborted(
      settings.fetch(url.href, { ...init, redirect: 'manual', signal }),
      signal,
    );
    const body = await readBodyLimited(response, settings.maxResponseBytes, signal);
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    // The abort reason tells a timeout from the caller's abort even when the fetch rethrows its own error.
    throw failure(signal.reason instanceof Timeout ? signal.reason : error, what, settings, caller);
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * Calling `onMessage`: the throw of an agent becomes -32603 with a generic message unless internal
 * errors are exposed (fail closed), a malformed reply becomes -32006 INVALID_AGENT_RESPONSE, and an
 * agent that outlives `agentTimeoutMs`, or whose task is canceled, is abandoned (its signal aborts).
 */
import { JSON_RPC_ERROR_CODES } from '@charter/json-rpc';
import { A2aRpcError } from './errors.ts';
import type { RpcFrame } from './frame.ts';
import type { A2aMessageContext } from './options.ts';
import { type NormalizedReply, normalizeReply } from './reply.ts';

/** Abort reason of a task stopped by CancelTask (A2A 1.0 §3 CancelTask). */
export class A2aTaskCanceled extends Error {
  constructor() {
    super('The task was canceled');
    this.name = 'A2aTaskCanceled';
  }
}

/** Abort reason (and failure) of an agent that did not answer within `agentTimeoutMs`. */
export class A2aAgentTimeout extends Error {
  constructor(ms: number) {
    super(`The agent did not answer within ${ms} ms`);
    this.name = 'A2aAgentTimeout';
  }
}

/** `String(value)` that cannot throw (a thrown `Object.create(null)` has no `toString`). */
function describe(value: unknown): string {
  try {
    return value instanceof Error ? value.message : String(value);
  } catch {
    return 'a value that cannot be printed';
  }
}

/** Calls the `onError` observer; an observer that throws must not turn one failure into another. */
export function report(frame: RpcFrame, error: unknown, method: string): void {
  try {
    frame.options.onError(error, { method });
  } catch {
    // The observer is the operator's logging; its own failure has nowhere better to go.
  }
}

/**
 * The JSON-RPC error for an unexpected throw: the message only when exposure is on. A timeout says
 * so in any case: it reveals nothing about the agent's internals.
 */
export function internalError(frame: RpcFrame, error: unknown): A2aRpcError {
  if (error instanceof A2aAgentTimeout) {
    return new A2aRpcError(JSON_RPC_ERROR_CODES.internalError, `Internal error: ${error.message}`);
  }
  return new A2aRpcError(
    JSON_RPC_ERROR_CODES.internalError,
    frame.exposeInternalErrors ? `Internal error: ${describe(error)}` : 'Internal error',
  );
}

/** Rejects with the abort reason as soon as `signal` aborts. */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Runs the agent and validates its reply; every failure is reported to `onError` and rethrown as an
 * A2aRpcError. `run` is the task's controller: aborting it (CancelTask, the client going away, or
 * `agentTimeoutMs`) stops waiting at once, so a hung agent cannot pin a task in WORKING.
 */
export async function callAgent(
  frame: RpcFrame,
  ctx: A2aMessageContext,
  run: AbortController,
): Promise<NormalizedReply> {
  const ms = frame.options.agentTimeoutMs;
  const timer = ms > 0 ? setTimeout(() => run.abort(new A2aAgentTimeout(ms)), ms) : undefined;
  let reply: unknown;
  try {
    // A synchronous throw of onMessage is a rejection like any other.
    const answer = new Promise<unknown>((resolve) => resolve(frame.options.onMessage(ctx)));
    reply = await Promise.race([answer, whenAborted(ctx.signal)]);
  } catch (error) {
    if (!(error instanceof A2aTaskCanceled)) report(frame, error, 'SendMessage');
    throw internalError(frame, error);
  } finally {
    clearTimeout(timer);
  }
  try {
    return normalizeReply(reply);
  } catch (error) {
    const reason = (error as { cause?: unknown }).cause;
    report(
      frame,
      new TypeError(`a2a: onMessage returned an invalid reply: ${describe(reason ?? error)}`),
      'SendMessage',
    );
    if (error instanceof A2aRpcError && frame.exposeInternalErrors) {
      throw new A2aRpcError(error.code, `${error.message}: ${describe(reason)}`, error.data);
    }
    if (error instanceof A2aRpcError) throw error;
    throw internalError(frame, error);
  }
}

/**
 * Calling `onMessage`: the throw of an agent becomes -32603 with a generic message unless internal
 * errors are exposed (fail closed), and a malformed reply becomes -32006 INVALID_AGENT_RESPONSE.
 */
import { JSON_RPC_ERROR_CODES } from '@charter/json-rpc';
import { A2aRpcError } from './errors.ts';
import type { RpcFrame } from './frame.ts';
import type { A2aMessageContext } from './options.ts';
import { type NormalizedReply, normalizeReply } from './reply.ts';

/** The JSON-RPC error for an unexpected throw: the message only when exposure is on. */
export function internalError(frame: RpcFrame, error: unknown): A2aRpcError {
  const detail = error instanceof Error ? error.message : String(error);
  return new A2aRpcError(
    JSON_RPC_ERROR_CODES.internalError,
    frame.exposeInternalErrors ? `Internal error: ${detail}` : 'Internal error',
  );
}

/** Runs the agent and validates its reply; every failure is reported to `onError` and rethrown as an A2aRpcError. */
export async function callAgent(frame: RpcFrame, ctx: A2aMessageContext): Promise<NormalizedReply> {
  let reply: unknown;
  try {
    reply = await frame.options.onMessage(ctx);
  } catch (error) {
    frame.options.onError(error, { method: 'SendMessage' });
    throw internalError(frame, error);
  }
  try {
    return normalizeReply(reply);
  } catch (error) {
    const reason = (error as { cause?: unknown }).cause;
    frame.options.onError(new TypeError(`a2a: onMessage returned an invalid reply: ${String(reason)}`), {
      method: 'SendMessage',
    });
    if (error instanceof A2aRpcError && frame.exposeInternalErrors) {
      throw new A2aRpcError(error.code, `${error.message}: ${String(reason)}`, error.data);
    }
    throw error;
  }
}

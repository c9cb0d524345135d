/**
 * One JSON-RPC 2.0 call over the A2A 1.0 JSON-RPC binding (§3): a POST with `A2A-Version: 1.0`, a
 * crypto-random id, and a strict reading of the answer (JSON-RPC 2.0 §5: `jsonrpc`, the same `id`,
 * exactly one of `result` and `error`).
 */
import { A2A_EXTENSIONS_HEADER, A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from '../constants.ts';
import { isJsonContentType, parseJsonBytes } from './body.ts';
import { A2aClientError } from './errors.ts';
import { type ExchangeResult, type ExchangeSettings, exchange } from './exchange.ts';
import { type A2aTracePropagation, traceHeaders } from './trace.ts';

/** What a call needs beyond the transport. */
export interface RpcSettings extends ExchangeSettings {
  readonly headers: () => Promise<Headers>;
  /** Joined `A2A-Extensions` value. */
  readonly extensions: string | undefined;
  readonly propagateTrace: A2aTracePropagation;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(method: string, why: string, status: number, cause?: unknown): A2aClientError {
  return new A2aClientError(`A2A ${method} answer is not a valid JSON-RPC response: ${why}`, {
    reason: 'invalid-response',
    status,
    cause,
  });
}

/** The JSON-RPC error in `body`, when it is a well-formed error response (id ours or null, §5.1). */
function rpcError(body: unknown, id: string, status: number): A2aClientError | undefined {
  if (!isObject(body) || body.jsonrpc !== '2.0' || !isObject(body.error) || Object.hasOwn(body, 'result')) {
    return undefined;
  }
  if (body.id !== id && body.id !== null) return undefined;
  const { code, message, data } = body.error;
  if (!Number.isSafeInteger(code) || typeof message !== 'string') return undefined;
  return new A2aClientError(message, { reason: 'rpc', code: code as number, data, status });
}

function parseBody(answer: ExchangeResult): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: parseJsonBytes(answer.body) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Turns a non-2xx answer into an error: the JSON-RPC error it carries, else an `http-status` error. */
function statusError(method: string, answer: ExchangeResult, id: string): A2aClientError {
  const type = answer.headers.get('content-type');
  const essence = type?.split(';')[0]?.trim().toLowerCase();
  const parsed =
    isJsonContentType(type) || essence === 'application/problem+json' ? parseBody(answer) : undefined;
  if (parsed?.ok) {
    const fromRpc = rpcError(parsed.value, id, answer.status);
    if (fromRpc !== undefined) return fromRpc;
  }
  // An RFC 9457 problem document (e.g. a 401 from an auth hook) is kept as `data` for the caller.
  const data = parsed?.ok && essence === 'application/problem+json' ? parsed.value : undefined;
  return new A2aClientError(`A2A ${method} answered HTTP ${answer.status}`, {
    reason: 'http-status',
    status: answer.status,
    data,
  });
}

/**
 * Calls `method` with `params` at `endpoint` and returns the `result`. Rejects with an `A2aClientError`:
 * `rpc` (the agent's error code, message and data) or a code-0 reason from `errors.ts`.
 */
export async function callRpc(
  settings: RpcSettings,
  endpoint: URL,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<unknown> {
  // A random string id: unguessable, so a cached or replayed answer to another call does not match.
  const id = crypto.randomUUID();
  const headers = await settings.headers();
  for (const [name, value] of Object.entries(traceHeaders(settings.propagateTrace))) headers.set(name, value);
  if (settings.extensions !== undefined) headers.set(A2A_EXTENSIONS_HEADER, settings.extensions);
  headers.set(A2A_VERSION_HEADER, A2A_PROTOCOL_VERSION);
  headers.set('accept', 'application/json');
  headers.set('content-type', 'application/json');
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const answer = await exchange(
    settings,
    endpoint,
    { method: 'POST', headers, body },
    `${method} call`,
    signal,
  );

  if (answer.status < 200 || answer.status > 299) throw statusError(method, answer, id);
  const type = answer.headers.get('content-type');
  if (!isJsonContentType(type)) {
    throw new A2aClientError(
      `A2A ${method} answer has Content-Type ${JSON.stringify(type)}, expected application/json`,
      { reason: 'content-type', status: answer.status },
    );
  }
  const parsed = parseBody(answer);
  if (!parsed.ok) throw invalid(method, 'the body is not UTF-8 JSON', answer.status, parsed.error);
  const value = parsed.value;
  const fromRpc = rpcError(value, id, answer.status);
  if (fromRpc !== undefined) throw fromRpc;
  if (!isObject(value)) throw invalid(method, 'not a JSON object', answer.status);
  if (value.jsonrpc !== '2.0') throw invalid(method, '"jsonrpc" is not "2.0"', answer.status);
  if (value.id !== id) throw invalid(method, 'its "id" is not the id of the request', answer.status);
  if (Object.hasOwn(value, 'error')) throw invalid(method, 'malformed "error" member', answer.status);
  if (!Object.hasOwn(value, 'result')) throw invalid(method, 'no "result" member', answer.status);
  return value.result;
}

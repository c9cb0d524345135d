/**
 * Server-to-client requests of the legacy era (MCP 2025-11-25 "Sampling", "Elicitation", "Roots";
 * "Transports" §Sending Messages): inside a session the server sends `sampling/createMessage`,
 * `elicitation/create` or `roots/list` on the POST's own event stream (or, when the client does not
 * accept one there, on the session's GET stream), and the client answers with a later POST that
 * carries the same session id, on whichever instance it lands: the answer travels back through the
 * store's pub/sub. Each request has a deadline.
 *
 * Two ways in: `ctx.sample`, `ctx.elicit`, `ctx.listRoots` from a handler, and `inputRequired(...)`
 * answers, which this module fulfils in the legacy era by asking the client and running the handler
 * again with `inputResponses`, so one handler serves both eras (2026-07-28 asks through the
 * input-required result itself).
 */
import { encodeBase64Url } from '@charter/core';
import { MCP_ERROR_CODES } from './constants.ts';
import { McpError } from './errors.ts';
import { isInputRequired } from './input-required.ts';
import type { NotificationChannel } from './notifications.ts';
import { type LiveSession, publishToStream, replyChannel, type SessionKeeper } from './session.ts';
import type { McpInputRequest, McpRequestContext } from './types.ts';

/**
 * A server-to-client request that got no answer in time: -32001, the code the official SDKs use for
 * a request timeout (in the implementation range JSON-RPC 2.0 §5.1 leaves to servers).
 */
const REQUEST_TIMEOUT = -32001;

/** Most rounds of input one legacy call may ask for before its input-required answer is refused. */
const MAX_INPUT_ROUNDS = 8;

/** The capability each server-to-client request needs the client to have declared in `initialize`. */
const CAPABILITY_OF: Readonly<Record<McpInputRequest['method'], string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Options of one server-to-client request. */
export interface McpClientRequestOptions {
  /** Most ms to wait for the answer; default the handler's `sessions.clientRequestTimeoutMs`. */
  timeoutMs?: number;
}

/** Sends one request to the client and waits for its answer. */
export type ClientAsker = (
  method: McpInputRequest['method'],
  params: Record<string, unknown>,
  options?: McpClientRequestOptions,
) => Promise<Record<string, unknown>>;

/** An asker that always refuses, saying why (no session, or the modern era). */
export function refusingAsker(reason: string): ClientAsker {
  return async (method) => {
    throw new McpError(MCP_ERROR_CODES.internalError, `Cannot send ${method} to the client: ${reason}`);
  };
}

/** The asker of a request inside a legacy session. */
export function sessionAsker(
  keeper: SessionKeeper,
  session: LiveSession,
  channel: NotificationChannel | undefined,
): ClientAsker {
  return async (method, params, options) => {
    const capability = CAPABILITY_OF[method];
    if (capability === undefined) {
      throw new McpError(
        MCP_ERROR_CODES.internalError,
        `Unknown server-to-client request: ${String(method)}`,
      );
    }
    const declared = session.record.clientCapabilities as Record<string, unknown>;
    if (typeof declared[capability] !== 'object' || declared[capability] === null) {
      throw new McpError(
        MCP_ERROR_CODES.missingRequiredClientCapability,
        `Missing required client capability: ${capability} (the client did not declare it in initialize)`,
        { data: { requiredCapabilities: { [capability]: {} } } },
      );
    }
    const timeoutMs = options?.timeoutMs ?? keeper.options.clientRequestTimeoutMs;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError('a client request timeoutMs must be a positive integer');
    }
    const id = `charter-${encodeBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`;
    let settle: ((text: string) => void) | undefined;
    const answered = new Promise<string>((resolve) => {
      settle = resolve;
    });
    // Listen before sending: the answer may come back before the send resolves.
    const stop = await keeper.store.subscribe(replyChannel(session.id, id), (text) => settle?.(text));
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const message = { jsonrpc: '2.0', id, method, params };
      if (channel?.send(message) !== true) {
        await publishToStream(keeper.store, session.id, JSON.stringify(message));
      }
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new McpError(REQUEST_TIMEOUT, `The client did not answer ${method} within ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
      });
      const text = await Promise.race([answered, deadline]);
      return readAnswer(method, text);
    } finally {
      clearTimeout(timer);
      await stop().catch(() => {});
    }
  };
}

function readAnswer(method: string, text: string): Record<string, unknown> {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new McpError(MCP_ERROR_CODES.internalError, `The client's answer to ${method} is not JSON`);
  }
  const { result, error } = answer;
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
    return result as Record<string, unknown>;
  }
  const detail =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
      ? `: ${(error as { message: string }).message.slice(0, 200)}`
      : '';
  throw new McpError(MCP_ERROR_CODES.internalError, `The client refused ${method}${detail}`);
}

/** `ctx.sample`, `ctx.elicit` and `ctx.listRoots` over an asker. */
export function clientRequests(ask: ClientAsker): Pick<McpRequestContext, 'sample' | 'elicit' | 'listRoots'> {
  return {
    sample: (params, options) => ask('sampling/createMessage', params as Record<string, unknown>, options),
    elicit: (params, options) => ask('elicitation/create', params as Record<string, unknown>, options),
    listRoots: (options) => ask('roots/list', {}, options),
  };
}

/**
 * Runs a handler; in a legacy session, each input-required answer is fulfilled by asking the client
 * (all requests of a round at once) and the handler runs again with `inputResponses` and its
 * `requestState` (kept server-side here: it never leaves the process). Elsewhere the first answer
 * is returned as is, for the modern interim result (or the legacy refusal).
 */
export async function withClientInput(
  ctx: McpRequestContext,
  ask: ClientAsker | undefined,
  invoke: (ctx: McpRequestContext) => unknown,
): Promise<unknown> {
  let current = ctx;
  let answer = await invoke(current);
  if (ask === undefined || ctx.era !== 'legacy') return answer;
  for (let round = 0; round < MAX_INPUT_ROUNDS && isInputRequired(answer); round++) {
    const requests = Object.entries(answer.inputRequests ?? {});
    const responses = await Promise.all(
      requests.map(async ([key, request]) => [key, await ask(request.method, request.params ?? {})] as const),
    );
    current = {
      ...current,
      inputResponses: Object.fromEntries(responses),
      ...(answer.requestState === undefined ? {} : { requestState: answer.requestState }),
    };
    answer = await invoke(current);
  }
  return answer;
}

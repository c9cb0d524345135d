/**
 * The A2A 1.0 agent client (JSON-RPC binding): discovers the agent from its card, then calls
 * `SendMessage`, `GetTask`, `CancelTask` and `ListTasks` on the card's JSON-RPC interface.
 */
import { A2A_METHODS } from '../constants.ts';
import type {
  A2aAgentCard,
  A2aCancelTaskRequest,
  A2aGetTaskRequest,
  A2aListTasksRequest,
  A2aListTasksResponse,
  A2aSendMessageResponse,
  A2aTask,
} from '../types.ts';
import { type CardReadOptions, createCardSource } from './card.ts';
import { type A2aMessageInput, toSendMessageRequest } from './message-input.ts';
import { type A2aClientHeaders, type A2aClientOptions, resolveA2aClientOptions } from './options.ts';
import { callRpc } from './rpc.ts';
import { asListTasksResponse, asSendMessageResponse, asTask } from './validate.ts';

/** Per-call options. */
export interface A2aCallOptions {
  /** Aborts the call; it then rejects with an `A2aClientError` of reason `aborted`. */
  signal?: AbortSignal;
}

/** Options of `getAgentCard`. */
export interface A2aCardOptions extends A2aCallOptions {
  /** Revalidate the card even when the cached copy is still fresh. Default false. */
  refresh?: boolean;
}

/** A client of one A2A agent. Every method rejects with `A2aClientError` when the call fails. */
export interface A2aClient {
  /** The URL the agent card is read from. */
  readonly cardUrl: string;
  /** The agent card (validated, frozen, cached for its freshness lifetime). */
  getAgentCard(options?: A2aCardOptions): Promise<A2aAgentCard>;
  /** Sends a user message; the agent answers with a task or a direct message, as on the wire. */
  sendMessage(input: A2aMessageInput, options?: A2aCallOptions): Promise<A2aSendMessageResponse>;
  /** Reads a task by id (or `{ id, historyLength }`). */
  getTask(params: string | A2aGetTaskRequest, options?: A2aCallOptions): Promise<A2aTask>;
  /** Asks the agent to cancel a task; resolves with the task as it is after the request. */
  cancelTask(params: string | A2aCancelTaskRequest, options?: A2aCallOptions): Promise<A2aTask>;
  /** Lists the caller's tasks, newest first, one page at a time (`nextPageToken` is `""` on the last). */
  listTasks(params?: A2aListTasksRequest, options?: A2aCallOptions): Promise<A2aListTasksResponse>;
}

async function headersOf(source: A2aClientHeaders | undefined): Promise<Headers> {
  if (source === undefined) return new Headers();
  return new Headers(typeof source === 'function' ? await source() : source);
}

function taskParams<T extends { id: string }>(method: string, params: string | T): T {
  const value = typeof params === 'string' ? ({ id: params } as T) : params;
  if (typeof value !== 'object' || value === null || typeof value.id !== 'string' || value.id === '') {
    throw new TypeError(`${method}: pass a task id or an object with a non-empty string id`);
  }
  return value;
}

/**
 * Creates a client of the A2A agent at `url`. Options are validated at once (`TypeError`/`RangeError`);
 * no request is sent until the first call.
 * @example
 * const agent = createA2aClient({ url: 'https://agent.example.com', headers: { authorization: `Bearer ${token}` } });
 * const answer = await agent.sendMessage('Summarise the release notes');
 * if ('task' in answer) console.log(answer.task.status.state);
 */
export function createA2aClient(options: A2aClientOptions): A2aClient {
  const resolved = resolveA2aClientOptions(options);
  const headers = (): Promise<Headers> => headersOf(resolved.headers);
  const settings = { ...resolved, headers };
  const readCard = createCardSource(settings);

  async function call(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const card = await readCard({ signal });
    // A2A 1.0 §3: when the chosen interface has a tenant, every request names it.
    const withTenant =
      card.tenant !== undefined && params.tenant === undefined ? { ...params, tenant: card.tenant } : params;
    return callRpc(settings, card.endpoint, method, withTenant, signal);
  }

  return Object.freeze({
    cardUrl: resolved.cardUrl.href,
    async getAgentCard(opts: CardReadOptions = {}) {
      return (await readCard(opts)).card;
    },
    async sendMessage(input: A2aMessageInput, opts: A2aCallOptions = {}) {
      const request = toSendMessageRequest(input);
      return asSendMessageResponse(
        await call(A2A_METHODS.sendMessage, request as unknown as Record<string, unknown>, opts.signal),
      );
    },
    async getTask(params: string | A2aGetTaskRequest, opts: A2aCallOptions = {}) {
      const request = taskParams('getTask', params);
      return asTask('GetTask', await call(A2A_METHODS.getTask, { ...request }, opts.signal));
    },
    async cancelTask(params: string | A2aCancelTaskRequest, opts: A2aCallOptions = {}) {
      const request = taskParams('cancelTask', params);
      return asTask('CancelTask', await call(A2A_METHODS.cancelTask, { ...request }, opts.signal));
    },
    async listTasks(params: A2aListTasksRequest = {}, opts: A2aCallOptions = {}) {
      if (typeof params !== 'object' || params === null || Array.isArray(params)) {
        throw new TypeError('listTasks: params must be an object');
      }
      return asListTasksResponse(await call(A2A_METHODS.listTasks, { ...params }, opts.signal));
    },
  });
}

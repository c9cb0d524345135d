/**
 * `createA2aHandler` options (https://charter.dev/docs/a2a, the handler options), the context
 * `onMessage` receives, and `resolveA2aHandlerOptions`, which validates them and names the option it
 * refuses.
 */
import { isProductionEnv, type State } from '@charter/core';
import { buildAgentCard, type A2aCardInput } from './card.ts';
import {
  A2A_DEFAULT_AGENT_TIMEOUT_MS,
  A2A_DEFAULT_CARD_MAX_AGE_SECONDS,
  A2A_DEFAULT_MAX_BODY_BYTES,
  A2A_DEFAULT_MAX_HISTORY,
} from './constants.ts';
import type { A2aReply } from './reply.ts';
import type { A2aTaskStore } from './task-store.ts';
import type { A2aAgentCard, A2aMessage, A2aMetadata, A2aTask } from './types.ts';

/** Who is calling: what the App knows about the request (through `a2aRoutes`, the route context). */
export interface A2aHost {
  /** The request being served. */
  readonly request?: Request;
  /** Per-request state set by hooks: `state.user` and `state.auth` after an authenticating hook. */
  readonly state?: State;
  /** The App runs in production (internal error detail is then hidden unless explicitly exposed). */
  readonly production?: boolean;
}

/** What `onMessage` is given for one incoming message. */
export interface A2aMessageContext {
  /** The client's message (role `ROLE_USER`). */
  readonly message: A2aMessage;
  /** The text of its text parts, joined with newlines (empty when it has none). */
  readonly text: string;
  /** The task this message continues (its history ends with `message`), or undefined for a new conversation turn. */
  readonly task: A2aTask | undefined;
  /** The conversation id: the client's, the task's, or a fresh UUID. */
  readonly contextId: string;
  /** The caller, as passed to `handleRpc` (through `a2aRoutes`: the route context). */
  readonly host: A2aHost;
  /** The owner `taskOwner(host)` resolved (undefined without a task store). */
  readonly owner: string | undefined;
  /**
   * Aborted when the client goes away (blocking calls), the task is canceled (CancelTask), or the call
   * outlives `agentTimeoutMs`; the reply of an aborted call is dropped.
   */
  readonly signal: AbortSignal;
  /** `configuration.acceptedOutputModes` of the request, if any. */
  readonly acceptedOutputModes: readonly string[] | undefined;
  /** Extension URIs the client declared in `A2A-Extensions`. */
  readonly extensions: readonly string[];
  /** `metadata` of the SendMessage request. */
  readonly metadata: A2aMetadata | undefined;
}

/** Options of `createA2aHandler`. */
export interface A2aHandlerOptions {
  /** The agent card to publish. Required. */
  card: A2aCardInput;
  /** Answers one message; see `A2aReply` for what it may return. Required. */
  onMessage: (ctx: A2aMessageContext) => A2aReply | Promise<A2aReply>;
  /** Keeps tasks: enables GetTask, CancelTask, ListTasks, multi-turn and `returnImmediately`. Default none. */
  taskStore?: A2aTaskStore;
  /**
   * Who owns the tasks of a request (required with `taskStore`): a non-empty string, typically
   * `host.state?.user?.id`. Undefined or empty refuses the request with a 401 problem.
   */
  taskOwner?: (host: A2aHost) => string | undefined | Promise<string | undefined>;
  /** Browser origins (bare, e.g. `https://app.example`) allowed to call the JSON-RPC endpoint; others get 403. Default none. */
  allowedOrigins?: readonly string[];
  /** Largest JSON-RPC body in bytes; larger gets a 413 problem. Default 262144 (256 KiB). */
  maxBodyBytes?: number;
  /** Most messages kept in a task's history; older ones are dropped first. Default 50. */
  maxHistory?: number;
  /** `max-age` of the card's Cache-Control, in seconds. Default 300. */
  cardMaxAgeSeconds?: number;
  /**
   * Longest time one `onMessage` call may take, in ms; then its signal aborts, the call is abandoned
   * and its task fails (a blocking SendMessage answers -32603). Covers `returnImmediately` work, which
   * no request timeout watches. 0 disables. Default 300000 (5 minutes).
   */
  agentTimeoutMs?: number;
  /**
   * Put the message of an unexpected throw in the -32603 error. Default: on only when NODE_ENV is
   * `development` or `test`. Fails closed: forced off inside a production App, whatever the value.
   */
  exposeInternalErrors?: boolean;
  /** Headers added to every answer (card, JSON-RPC, problems). */
  headers?: Readonly<Record<string, string>>;
  /** Observes unexpected throws of `onMessage` and invalid replies. Default: `console.error`. */
  onError?: (error: unknown, info: { readonly method: string }) => void;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedA2aHandlerOptions {
  readonly card: A2aAgentCard;
  readonly onMessage: A2aHandlerOptions['onMessage'];
  readonly taskStore: A2aTaskStore | undefined;
  readonly taskOwner: A2aHandlerOptions['taskOwner'];
  readonly allowedOrigins: ReadonlySet<string>;
  readonly maxBodyBytes: number;
  readonly maxHistory: number;
  readonly cardMaxAgeSeconds: number;
  readonly agentTimeoutMs: number;
  readonly exposeInternalErrors: boolean | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly onError: NonNullable<A2aHandlerOptions['onError']>;
}

function fail(option: string, message: string): never {
  throw new TypeError(`createA2aHandler: option "${option}" ${message}`);
}

function integer(
  option: string,
  value: unknown,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`createA2aHandler: option "${option}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

function origin(value: unknown): string {
  if (typeof value !== 'string') fail('allowedOrigins', 'must contain strings');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail('allowedOrigins', `entry ${JSON.stringify(value)} is not an origin`);
  }
  if (url.origin === 'null' || url.origin !== value) {
    fail(
      'allowedOrigins',
      `entry ${JSON.stringify(value)} must be a bare origin such as "https://app.example"`,
    );
  }
  return value;
}

function headerMap(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return Object.freeze({});
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('headers', 'must be an object');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') fail('headers', `value of ${JSON.stringify(name)} must be a string`);
    try {
      new Headers({ [name]: v });
    } catch {
      fail('headers', `${JSON.stringify(name)} is not a valid header`);
    }
    out[name] = v;
  }
  return Object.freeze(out);
}

function checkStore(value: unknown): A2aTaskStore | undefined {
  if (value === undefined) return undefined;
  const store = value as Record<string, unknown>;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof store.get !== 'function' ||
    typeof store.put !== 'function' ||
    typeof store.list !== 'function'
  ) {
    fail('taskStore', 'must implement get, put and list (see A2aTaskStore), e.g. memoryTaskStore()');
  }
  return value as A2aTaskStore;
}

/** Validates `createA2aHandler` options, fills defaults and freezes them. */
export function resolveA2aHandlerOptions(options: A2aHandlerOptions): ResolvedA2aHandlerOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('createA2aHandler: options are required');
  const card = buildAgentCard(options.card);
  if (typeof options.onMessage !== 'function') fail('onMessage', 'is required and must be a function');
  const taskStore = checkStore(options.taskStore);
  if (options.taskOwner !== undefined && typeof options.taskOwner !== 'function')
    fail('taskOwner', 'must be a function');
  if (taskStore !== undefined && options.taskOwner === undefined) {
    fail(
      'taskOwner',
      'is required with a taskStore: tasks are scoped to their owner (A2A 1.0 §5 authorization)',
    );
  }
  if (taskStore === undefined && options.taskOwner !== undefined) {
    fail('taskOwner', 'has no effect without a taskStore');
  }
  const origins = options.allowedOrigins ?? [];
  if (!Array.isArray(origins)) fail('allowedOrigins', 'must be an array');
  if (options.exposeInternalErrors !== undefined && typeof options.exposeInternalErrors !== 'boolean') {
    fail('exposeInternalErrors', 'must be a boolean');
  }
  if (options.onError !== undefined && typeof options.onError !== 'function')
    fail('onError', 'must be a function');
  return Object.freeze({
    card,
    onMessage: options.onMessage,
    taskStore,
    taskOwner: options.taskOwner,
    allowedOrigins: new Set(origins.map(origin)),
    maxBodyBytes: integer('maxBodyBytes', options.maxBodyBytes, A2A_DEFAULT_MAX_BODY_BYTES, 1),
    maxHistory: integer('maxHistory', options.maxHistory, A2A_DEFAULT_MAX_HISTORY, 1),
    cardMaxAgeSeconds: integer(
      'cardMaxAgeSeconds',
      options.cardMaxAgeSeconds,
      A2A_DEFAULT_CARD_MAX_AGE_SECONDS,
      0,
    ),
    // setTimeout takes a signed 32-bit delay; a longer one would fire at once.
    agentTimeoutMs: integer(
      'agentTimeoutMs',
      options.agentTimeoutMs,
      A2A_DEFAULT_AGENT_TIMEOUT_MS,
      0,
      2_147_483_647,
    ),
    exposeInternalErrors: options.exposeInternalErrors,
    headers: headerMap(options.headers),
    onError: options.onError ?? ((error: unknown) => console.error('a2a: onMessage failed', error)),
  });
}

/**
 * Whether a -32603 may carry the thrown message. A production App always hides it (forced off;
 * https://charter.dev/docs/a2a); otherwise an explicit option wins, and by default only NODE_ENV development/test
 * reveals it: fail closed.
 */
export function exposesInternalErrors(
  options: ResolvedA2aHandlerOptions,
  production: boolean | undefined,
): boolean {
  if (production === true) return false;
  if (options.exposeInternalErrors !== undefined) return options.exposeInternalErrors;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    ?.NODE_ENV;
  return !isProductionEnv() && (env === 'development' || env === 'test');
}

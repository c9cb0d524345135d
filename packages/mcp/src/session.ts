/**
 * Sessions of the legacy Streamable HTTP transport (MCP 2025-03-26, 2025-06-18, 2025-11-25
 * "Transports" §Session Management), kept only when the app gives the handler a store:
 *
 *   - `initialize` answered with success mints an `Mcp-Session-Id` (32 CSPRNG bytes, base64url:
 *     visible ASCII as the transport requires), bound to the caller's credential when it has one;
 *   - every later legacy message must carry it: none is a 400, an unknown, expired, ended or
 *     foreign one a 404 (the client then starts a new session with `initialize`);
 *   - `DELETE` with the header ends the session (204), and its streams close.
 *
 * 2026-07-28 removed sessions ("Transports": no `Mcp-Session-Id`, no GET stream, no DELETE):
 * modern requests are served statelessly whatever headers they carry. A store that fails (Redis
 * down) is a 503 with `Retry-After`, never a request served as if there were no session.
 */
import {
  BadRequestError,
  encodeBase64Url,
  type HttpError,
  NotFoundError,
  ServiceUnavailableError,
  timingSafeEqual,
} from '@charter/core';
import { classifyMessage } from '@charter/json-rpc';
import { requestEra } from './era.ts';
import type { McpSessionRecord, McpSessionStore } from './session-store.ts';
import type { McpClientCapabilities, McpClientInfo } from './types.ts';

/** The `sessions` option of `createMcpHandler`. */
export interface McpSessionOptions {
  /** Where sessions live: `memoryMcpSessionStore()` for one instance, `redisMcpSessionStore(...)` for many. */
  store: McpSessionStore;
  /** A session unused for this long ends. Default 1800000 (30 minutes). */
  idleTtlMs?: number;
  /** Most ms a server-to-client request (`ctx.sample`, `ctx.elicit`, `ctx.listRoots`) waits. Default 60000. */
  clientRequestTimeoutMs?: number;
  /**
   * Who the caller is, to bind a session to them. Default: `requestStatePrincipal` when set, else a
   * SHA-256 digest of the `Authorization` header; a session opened with one credential answers 404
   * to any other.
   */
  principal?: (request: Request) => string | undefined | Promise<string | undefined>;
}

/** The option after validation. */
export interface ResolvedSessionOptions {
  readonly store: McpSessionStore;
  readonly idleTtlMs: number;
  readonly clientRequestTimeoutMs: number;
  readonly principal: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
}

/** Checks the `sessions` option; undefined keeps the handler stateless. */
export function resolveSessionOptions(value: unknown): ResolvedSessionOptions | undefined {
  if (value === undefined) return undefined;
  const fail = (message: string): never => {
    throw new TypeError(`createMcpHandler: option "sessions" ${message}`);
  };
  if (typeof value !== 'object' || value === null) fail('must be an object with a store');
  const options = value as McpSessionOptions;
  const store = options.store as unknown as Record<string, unknown> | undefined;
  for (const method of ['set', 'get', 'replaceIf', 'delete', 'publish', 'subscribe']) {
    if (typeof store?.[method] !== 'function') {
      fail(
        `needs store: an McpSessionStore (memoryMcpSessionStore() or charter/redis redisMcpSessionStore), with ${method}()`,
      );
    }
  }
  const duration = (name: string, given: unknown, fallback: number): number => {
    if (given === undefined) return fallback;
    if (typeof given !== 'number' || !Number.isSafeInteger(given) || given <= 0)
      fail(`.${name} must be a positive integer (ms), got ${String(given)}`);
    return given as number;
  };
  if (options.principal !== undefined && typeof options.principal !== 'function')
    fail('.principal must be a function');
  return Object.freeze({
    store: options.store,
    idleTtlMs: duration('idleTtlMs', options.idleTtlMs, 1_800_000),
    clientRequestTimeoutMs: duration('clientRequestTimeoutMs', options.clientRequestTimeoutMs, 60_000),
    principal: options.principal,
  });
}

/**
 * How many compare-and-set rounds one change of a session may lose before it fails (a 503): each
 * round one contender wins, so only a session changed by more requests at once than this can hit it.
 */
const MAX_CHANGE_ATTEMPTS = 200;

/** The header that carries the session (header names are case-insensitive). */
export const SESSION_HEADER = 'mcp-session-id';

/** A session the current request belongs to. */
export interface LiveSession {
  readonly id: string;
  readonly record: McpSessionRecord;
}

/** What the gate decided for one POST. */
export type SessionGate =
  | { readonly kind: 'stateless' }
  | { readonly kind: 'initialize' }
  | { readonly kind: 'session'; readonly session: LiveSession }
  | { readonly kind: 'refused'; readonly error: HttpError };

const encoder = new TextEncoder();

/** The channel carrying messages for a session's GET stream. */
export function streamChannel(sessionId: string): string {
  return `stream:${sessionId}`;
}

/** The channel a client's answer to server request `requestId` arrives on. */
export function replyChannel(sessionId: string, requestId: string): string {
  return `reply:${sessionId}:${requestId}`;
}

/** The channel resource updates are announced on, to every instance. */
export const RESOURCES_CHANNEL = 'resources-updated';

/** The message that closes a session's streams when it ends. */
export const END_OF_SESSION = 'end';

/**
 * Sends a JSON-RPC message to the session's GET stream, wherever it is open. With a store that
 * records events, the message is recorded first and travels as `<event id> <json>`, so a client
 * that reconnects with `Last-Event-ID` gets it again (2025-11-25 "Transports" §Resumability).
 */
export async function publishToStream(
  store: McpSessionStore,
  sessionId: string,
  json: string,
): Promise<void> {
  const id = store.appendEvent === undefined ? '-' : await store.appendEvent(sessionId, json);
  await store.publish(streamChannel(sessionId), `${id} ${json}`);
}

/** Does the session bookkeeping of one handler. */
export class SessionKeeper {
  readonly options: ResolvedSessionOptions;
  readonly #fallbackPrincipal:
    | ((request: Request) => string | undefined | Promise<string | undefined>)
    | undefined;
  readonly #now: () => number;

  constructor(
    options: ResolvedSessionOptions,
    requestStatePrincipal:
      | ((request: Request) => string | undefined | Promise<string | undefined>)
      | undefined,
    now: () => number = Date.now,
  ) {
    this.options = options;
    this.#fallbackPrincipal = requestStatePrincipal;
    this.#now = now;
  }

  get store(): McpSessionStore {
    return this.options.store;
  }

  async #principal(request: Request): Promise<string | undefined> {
    const custom = this.options.principal ?? this.#fallbackPrincipal;
    if (custom !== undefined) return custom(request);
    const authorization = request.headers.get('authorization');
    if (authorization === null) return undefined;
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(authorization));
    return encodeBase64Url(new Uint8Array(digest));
  }

  /**
   * Which POSTs need a session: legacy requests other than `initialize`, legacy notifications and
   * responses, and batches (2025-03-26 only). Modern ones (a 2026-07-28 `_meta` claim or header)
   * are stateless; a malformed message is answered by the usual rules.
   */
  async gate(request: Request, body: unknown): Promise<SessionGate> {
    const header = request.headers.get('mcp-protocol-version');
    if (!Array.isArray(body)) {
      const classified = classifyMessage(body);
      if (classified.kind === 'invalid') return { kind: 'stateless' };
      const params = classified.kind === 'response' ? undefined : classified.message.params;
      if (requestEra(params, header) === 'modern') return { kind: 'stateless' };
      if (classified.kind === 'request' && classified.message.method === 'initialize')
        return { kind: 'initialize' };
    }
    return this.open(request);
  }

  /** The session the request names: 400 without the header, 404 when unknown or foreign, 503 when the store fails. */
  async open(request: Request): Promise<SessionGate> {
    const id = request.headers.get(SESSION_HEADER);
    if (id === null || id.length === 0) {
      return {
        kind: 'refused',
        error: new BadRequestError(
          'This tool server keeps sessions: send the Mcp-Session-Id header its initialize response gave (or initialize first)',
        ),
      };
    }
    let record: McpSessionRecord | undefined;
    let principal: string | undefined;
    try {
      record = id.length > 200 ? undefined : await this.store.get(id);
      principal = await this.#principal(request);
    } catch {
      return { kind: 'refused', error: storeDown() };
    }
    // A session bound to a credential answers 404 to any other, exactly as an unknown one does, so
    // a stolen id says nothing; compared in constant time (its digest is secret-derived).
    if (record === undefined || !samePrincipal(record.principal, principal)) {
      return {
        kind: 'refused',
        error: new NotFoundError('Unknown or expired Mcp-Session-Id: send initialize to start a new session'),
      };
    }
    const now = this.#now();
    // Sliding expiry, written at most once per half period so a busy session is not a write per call.
    if (record.expiresAt - now < this.options.idleTtlMs / 2) {
      const expiresAt = now + this.options.idleTtlMs;
      try {
        // Compare-and-set on the current record: a subscription another instance records meanwhile is kept.
        const changed = await this.change(id, (current) =>
          current.expiresAt >= expiresAt ? undefined : { ...current, expiresAt },
        );
        if (changed === undefined) {
          return {
            kind: 'refused',
            error: new NotFoundError(
              'Unknown or expired Mcp-Session-Id: send initialize to start a new session',
            ),
          };
        }
        record = changed;
      } catch {
        return { kind: 'refused', error: storeDown() };
      }
    }
    return { kind: 'session', session: { id, record } };
  }

  /** Mints a session for a successful `initialize`: its id, or an error when the store fails. */
  async mint(request: Request, params: unknown, protocolVersion: string): Promise<string | HttpError> {
    const given = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
    const capabilities = isObject(given.capabilities) ? (given.capabilities as McpClientCapabilities) : {};
    const clientInfo = isObject(given.clientInfo) ? (given.clientInfo as McpClientInfo) : undefined;
    const id = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    try {
      const principal = await this.#principal(request);
      const record: McpSessionRecord = {
        protocolVersion,
        clientCapabilities: capabilities,
        ...(clientInfo === undefined ? {} : { clientInfo }),
        ...(principal === undefined ? {} : { principal }),
        subscriptions: [],
        expiresAt: this.#now() + this.options.idleTtlMs,
      };
      await this.store.set(id, record);
    } catch {
      return storeDown();
    }
    return id;
  }

  /**
   * Changes a live session atomically: reads it, applies `edit` (undefined: nothing to change) and
   * writes it with the store's compare-and-set, again from a fresh read when another write came
   * first, so concurrent changes on any number of instances all land. Resolves with the record as
   * written (or as read, when unchanged), undefined when the session is gone; rejects when the
   * store fails or stays contended for `MAX_CHANGE_ATTEMPTS` rounds.
   */
  async change(
    id: string,
    edit: (record: McpSessionRecord) => McpSessionRecord | undefined,
  ): Promise<McpSessionRecord | undefined> {
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.store.get(id);
      if (current === undefined) return undefined;
      const next = edit(current);
      if (next === undefined) return current;
      if (await this.store.replaceIf(id, next, current)) return next;
      // Lost the race: a random pause of up to a few ms spreads the next round of contenders.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt + 1, 10)));
    }
    throw new Error(`session ${id.slice(0, 8)}... stayed contended for ${MAX_CHANGE_ATTEMPTS} attempts`);
  }

  /** Saves a change of a live session's record (the log level), atomically; undefined when it ended. */
  async update(session: LiveSession, change: Partial<McpSessionRecord>): Promise<LiveSession | undefined> {
    const record = await this.change(session.id, (current) => ({ ...current, ...change }));
    return record === undefined ? undefined : { id: session.id, record };
  }

  /** `DELETE` with the header: 204 and the session's streams closed; 400 without it, 404 unknown. */
  async end(request: Request): Promise<HttpError | undefined> {
    const gate = await this.open(request);
    if (gate.kind === 'refused') return gate.error;
    if (gate.kind !== 'session') return undefined;
    try {
      await this.store.delete(gate.session.id);
      await this.store.publish(streamChannel(gate.session.id), END_OF_SESSION);
    } catch {
      return storeDown();
    }
    return undefined;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function samePrincipal(stored: string | undefined, given: string | undefined): boolean {
  if (stored === undefined) return true;
  return given !== undefined && timingSafeEqual(stored, given);
}

/** 503 with Retry-After: the store did not answer (its own deadline bounds the wait). */
export function storeDown(): HttpError {
  return new ServiceUnavailableError({
    detail: 'The session store is unavailable; try again shortly',
    retryAfterSeconds: 1,
  });
}

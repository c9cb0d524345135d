/**
 * Where a tool server keeps its legacy-era sessions (MCP 2025-03-26 to 2025-11-25 "Transports"
 * §Session Management): the `McpSessionStore` contract and the in-process `memoryMcpSessionStore`.
 * A store holds records and carries messages between instances: the instance holding a session's
 * stream is rarely the one that received the POST, so the store's pub/sub is how a resource update,
 * a server-to-client request or the client's answer finds it. `charter/redis` has the shared one.
 */
import type { McpClientCapabilities, McpClientInfo } from './types.ts';

/** One session, as the store keeps it. */
export interface McpSessionRecord {
  /** The revision negotiated by `initialize`. */
  readonly protocolVersion: string;
  /** What the client declared in `initialize` (sampling, elicitation, roots, ...). */
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo?: McpClientInfo;
  /** Who opened it (a digest of the credential), when the request carried one: other callers get 404. */
  readonly principal?: string;
  /** URIs of `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** The `logging/setLevel` threshold. */
  readonly logLevel?: string;
  /** When the session ends unless used again, in ms since the epoch. */
  readonly expiresAt: number;
}

/**
 * The contract a session store fulfils. Records expire on their own at `expiresAt`; `get` never
 * returns an expired one. Messages are at most once: a listener that is not subscribed when a
 * message is published never sees it. Every method may reject (the store is down): the handler
 * answers 503 with `Retry-After`, never a session-less success.
 */
export interface McpSessionStore {
  /** Creates or replaces a session. */
  set(id: string, record: McpSessionRecord): Promise<void>;
  /**
   * Compare-and-set: writes `record` only if the stored session is still `expected` (the record as
   * `get` returned it) and has not expired; true when written, false when another write came first
   * or the session is gone. Every change of a live session goes through it (read, edit, `replaceIf`,
   * again on false), so two instances changing one session at the same instant never lose a change.
   */
  replaceIf(id: string, record: McpSessionRecord, expected: McpSessionRecord): Promise<boolean>;
  /** The session, or undefined when unknown or expired. */
  get(id: string): Promise<McpSessionRecord | undefined>;
  /** Ends a session; true when it existed. */
  delete(id: string): Promise<boolean>;
  /** Sends `message` to every listener of `channel`, on every instance. */
  publish(channel: string, message: string): Promise<void>;
  /** Listens to `channel` until the returned function is called. Resolves once listening. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Optional, for `Last-Event-ID` resumption (2025-11-25 "Transports" §Resumability and
   * Redelivery): records a message of one of session `sessionId`'s streams and returns its event id
   * (increasing integers as decimal strings, counted per stream). `stream` is undefined for the
   * session's GET stream, else the key of a POST's own event stream. Keep the last
   * `MCP_SESSION_EVENT_LOG_SIZE` of each stream and drop them all with the session.
   */
  appendEvent?(sessionId: string, message: string, stream?: string): Promise<string>;
  /** Optional, with `appendEvent`: the recorded events of the stream after `eventId`, oldest first. */
  eventsAfter?(sessionId: string, eventId: string, stream?: string): Promise<readonly McpSessionEvent[]>;
}

/** One recorded message of a session's stream. */
export interface McpSessionEvent {
  readonly id: string;
  readonly message: string;
}

/** How many events of a session's stream a store keeps for resumption. */
export const MCP_SESSION_EVENT_LOG_SIZE = 100;

/** How many POST streams of one session `memoryMcpSessionStore` keeps events of (the newest). */
export const MCP_SESSION_POST_STREAM_LOGS = 32;

/** Options of `memoryMcpSessionStore()`. */
export interface MemoryMcpSessionStoreOptions {
  /** Most live sessions; creating one more fails (the initialize gets 503). Default 10000. */
  maxSessions?: number;
  /** Clock in ms since the epoch; default `Date.now`. */
  now?: () => number;
}

/**
 * Sessions in this process's memory, with in-process pub/sub: for one instance (and for tests).
 * Behind a load balancer use `redisMcpSessionStore` (charter/redis), or every instance but the one
 * that minted a session answers 404 for it.
 */
export function memoryMcpSessionStore(options: MemoryMcpSessionStoreOptions = {}): McpSessionStore {
  const maxSessions = options.maxSessions ?? 10_000;
  if (!Number.isSafeInteger(maxSessions) || maxSessions <= 0) {
    throw new TypeError('memoryMcpSessionStore option "maxSessions" must be a positive integer');
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('memoryMcpSessionStore option "now" must be a function');
  // Each record with its JSON, which `replaceIf` compares the expected record's JSON with.
  const records = new Map<string, { readonly record: McpSessionRecord; readonly json: string }>();
  // Per session, per stream ('' the GET stream, else a POST stream's key): its recorded events.
  const logs = new Map<string, Map<string, { next: number; events: McpSessionEvent[] }>>();
  const channels = new Map<string, Set<(message: string) => void>>();
  const purge = () => {
    const time = now();
    for (const [id, { record }] of records) {
      if (record.expiresAt > time) continue;
      records.delete(id);
      logs.delete(id);
    }
  };
  return {
    async set(id, record) {
      if (!records.has(id) && records.size >= maxSessions) {
        purge();
        if (records.size >= maxSessions) {
          throw new Error(`memoryMcpSessionStore holds its maximum of ${maxSessions} sessions`);
        }
      }
      records.set(id, { record: structuredClone(record), json: JSON.stringify(record) });
    },
    async replaceIf(id, record, expected) {
      const stored = records.get(id);
      if (stored === undefined || stored.record.expiresAt <= now()) return false;
      if (stored.json !== JSON.stringify(expected)) return false;
      records.set(id, { record: structuredClone(record), json: JSON.stringify(record) });
      return true;
    },
    async get(id) {
      const record = records.get(id)?.record;
      if (record === undefined) return undefined;
      if (record.expiresAt <= now()) {
        records.delete(id);
        logs.delete(id);
        return undefined;
      }
      return structuredClone(record);
    },
    async delete(id) {
      const record = records.get(id)?.record;
      records.delete(id);
      logs.delete(id);
      return record !== undefined && record.expiresAt > now();
    },
    async publish(channel, message) {
      const listeners = channels.get(channel);
      if (listeners === undefined) return;
      // Delivered on a later turn, as a networked store would: a publisher never runs a listener
      // in its own call stack.
      for (const listener of [...listeners]) queueMicrotask(() => listener(message));
    },
    async appendEvent(sessionId, message, stream = '') {
      let streams = logs.get(sessionId);
      if (streams === undefined) {
        streams = new Map();
        logs.set(sessionId, streams);
      }
      let log = streams.get(stream);
      if (log === undefined) {
        log = { next: 1, events: [] };
        streams.set(stream, log);
        // The oldest POST streams' events go first (a Map iterates in insertion order).
        const posts = [...streams.keys()].filter((key) => key !== '');
        for (const key of posts.slice(0, Math.max(0, posts.length - MCP_SESSION_POST_STREAM_LOGS)))
          streams.delete(key);
      }
      const id = String(log.next++);
      log.events.push({ id, message });
      if (log.events.length > MCP_SESSION_EVENT_LOG_SIZE) log.events.shift();
      return id;
    },
    async eventsAfter(sessionId, eventId, stream = '') {
      const after = Number(eventId);
      return (logs.get(sessionId)?.get(stream)?.events ?? []).filter((event) => Number(event.id) > after);
    },
    async subscribe(channel, listener) {
      let listeners = channels.get(channel);
      if (listeners === undefined) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      const own = (message: string) => listener(message);
      listeners.add(own);
      return async () => {
        listeners.delete(own);
        if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
      };
    },
  };
}

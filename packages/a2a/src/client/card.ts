/**
 * Agent card discovery and caching for the A2A client (A2A 1.0 §2; HTTP caching per RFC 9111): the
 * card is fetched, validated, kept for its freshness lifetime, then revalidated with `If-None-Match`
 * (RFC 9110 §13.1.2) so an unchanged card costs a 304 and no body.
 */
import type { A2aAgentCard } from '../types.ts';
import { isJsonContentType, parseJsonBytes, untilAborted } from './body.ts';
import { A2aClientError } from './errors.ts';
import { type ExchangeSettings, exchange } from './exchange.ts';
import { A2A_CLIENT_CARD_MAX_AGE_CAP_MS } from './options.ts';
import { type InterfacePolicy, resolveInterfaceUrl } from './url-policy.ts';
import { assertAgentCard, selectJsonRpcInterface } from './validate.ts';

/** A validated card and the JSON-RPC endpoint chosen from it. */
export interface ResolvedCard {
  readonly card: A2aAgentCard;
  /** The `supportedInterfaces` URL, checked against the origin rule. */
  readonly endpoint: URL;
  /** The chosen interface's `tenant`, when set and non-empty (sent as the `tenant` param). */
  readonly tenant: string | undefined;
}

/** What the card cache needs. */
export interface CardSourceSettings extends ExchangeSettings, InterfacePolicy {
  readonly cardUrl: URL;
  /** Undefined: freshness from the response's Cache-Control. */
  readonly cardMaxAgeMs: number | undefined;
  /** The headers every request carries (user headers). */
  readonly headers: () => Promise<Headers>;
  /** Clock, in ms; `Date.now` outside tests. */
  readonly now?: () => number;
}

/** Options of one card read. */
export interface CardReadOptions {
  /** Revalidate even when the cached card is fresh. */
  refresh?: boolean;
  signal?: AbortSignal;
}

/** Reads the card, from the cache while it is fresh. */
export type CardSource = (options?: CardReadOptions) => Promise<ResolvedCard>;

function isDigits(text: string): boolean {
  if (text === '' || text.length > 12) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * Freshness lifetime in seconds from `Cache-Control` (RFC 9111 §5.2.2): `no-store` and `no-cache` give 0,
 * `max-age` gives its value less `Age` (§4.2.3). Undefined when the header is absent or has neither.
 * A repeated or malformed `max-age` makes the response stale (§4.2.1). `s-maxage` is for shared caches
 * (§5.2.2.10) and this cache is private: ignored.
 */
export function freshnessSeconds(headers: Headers): number | undefined {
  const field = headers.get('cache-control');
  if (field === null) return undefined;
  let maxAge: number | undefined;
  for (const directive of field.split(',')) {
    const eq = directive.indexOf('=');
    const name = (eq === -1 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    if (name === 'no-store' || name === 'no-cache') return 0;
    if (name !== 'max-age') continue;
    let value = eq === -1 ? '' : directive.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!isDigits(value) || maxAge !== undefined) return 0;
    maxAge = Number(value);
  }
  if (maxAge === undefined) return undefined;
  const age = headers.get('age')?.trim() ?? '';
  return Math.max(0, maxAge - (isDigits(age) ? Number(age) : 0));
}

/** True when `Cache-Control` forbids keeping the response (RFC 9111 §5.2.2.5): no ETag is kept either. */
function isNoStore(headers: Headers): boolean {
  const field = headers.get('cache-control') ?? '';
  return field.split(',').some((directive) => directive.trim().toLowerCase() === 'no-store');
}

function waitFor(pending: Promise<ResolvedCard>, signal: AbortSignal): Promise<ResolvedCard> {
  return untilAborted(pending, signal).catch((error: unknown) => {
    if (!signal.aborted) throw error;
    throw new A2aClientError("A2A agent card request was aborted by the caller's signal", {
      reason: 'aborted',
      cause: signal.reason,
    });
  });
}

interface Entry {
  readonly resolved: ResolvedCard;
  readonly etag: string | undefined;
  /** Lifetime from the last 200/304, kept when a 304 carries no Cache-Control (RFC 9111 §4.3.4). */
  readonly lifetimeMs: number;
  readonly expiresAt: number;
}

/** Freezes a parsed JSON value; iterative, since a hostile card may nest deeper than the call stack. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}

/** Creates the card reader of one client: one cache entry, concurrent reads share one request. */
export function createCardSource(settings: CardSourceSettings): CardSource {
  const now = settings.now ?? Date.now;
  let entry: Entry | undefined;
  let pending: Promise<ResolvedCard> | undefined;

  const lifetimeFrom = (headers: Headers, previous: number | undefined): number => {
    if (settings.cardMaxAgeMs !== undefined) return settings.cardMaxAgeMs;
    const seconds = freshnessSeconds(headers);
    if (seconds === undefined) return previous ?? 0;
    return Math.min(seconds * 1000, A2A_CLIENT_CARD_MAX_AGE_CAP_MS);
  };

  async function load(): Promise<ResolvedCard> {
    const headers = await settings.headers();
    headers.set('accept', 'application/json');
    if (entry?.etag !== undefined) headers.set('if-none-match', entry.etag);
    const answer = await exchange(
      settings,
      settings.cardUrl,
      { method: 'GET', headers },
      'agent card request',
    );
    const etag = answer.headers.get('etag') ?? undefined;
    if (answer.status === 304 && entry?.etag !== undefined) {
      const lifetimeMs = lifetimeFrom(answer.headers, entry.lifetimeMs);
      entry = { ...entry, etag: etag ?? entry.etag, lifetimeMs, expiresAt: now() + lifetimeMs };
      return entry.resolved;
    }
    if (answer.status !== 200) {
      throw new A2aClientError(
        `A2A agent card request to ${settings.cardUrl.href} answered HTTP ${answer.status}`,
        {
          reason: 'http-status',
          status: answer.status,
        },
      );
    }
    if (!isJsonContentType(answer.headers.get('content-type'))) {
      throw new A2aClientError(
        `A2A agent card has Content-Type ${JSON.stringify(answer.headers.get('content-type'))}, expected application/json`,
        { reason: 'content-type', status: 200 },
      );
    }
    let card: unknown;
    try {
      card = parseJsonBytes(answer.body);
    } catch (error) {
      throw new A2aClientError('A2A agent card is invalid: the body is not UTF-8 JSON', {
        reason: 'invalid-card',
        status: 200,
        cause: error,
      });
    }
    assertAgentCard(card);
    const chosen = selectJsonRpcInterface(card);
    const endpoint = resolveInterfaceUrl(chosen.url, settings.cardUrl, settings);
    const resolved: ResolvedCard = Object.freeze({
      card: deepFreeze(card),
      endpoint,
      tenant: chosen.tenant === undefined || chosen.tenant === '' ? undefined : chosen.tenant,
    });
    const lifetimeMs = lifetimeFrom(answer.headers, undefined);
    entry = {
      resolved,
      etag: isNoStore(answer.headers) ? undefined : etag,
      lifetimeMs,
      expiresAt: now() + lifetimeMs,
    };
    return resolved;
  }

  return (options = {}) => {
    if (entry !== undefined && !options.refresh && now() < entry.expiresAt)
      return Promise.resolve(entry.resolved);
    // Concurrent callers share one request (bounded by timeoutMs), each waiting under its own signal;
    // a failure is not cached.
    if (pending === undefined) {
      pending = load().finally(() => {
        pending = undefined;
      });
    }
    return options.signal === undefined ? pending : waitFor(pending, options.signal);
  };
}

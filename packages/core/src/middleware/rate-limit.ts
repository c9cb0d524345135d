/**
 * Rate limiting: at most `max` requests per `windowMs` per client key, counted in a
 * `RateLimitStore`. A request over the limit answers 429 with `Retry-After` (RFC 9110 §10.2.3,
 * RFC 6585 §4); every response it sees carries the RateLimit header fields of
 * draft-ietf-httpapi-ratelimit-headers (-09 and later):
 *
 *   RateLimit-Policy: "default";q=100;w=60    quota q per window of w seconds, for policy "default"
 *   RateLimit: "default";r=0;t=30             r requests remaining, t seconds until the window resets
 *
 * Both are Structured Field Lists (RFC 9651), so several policies on one request add list members.
 */
import { clientKey, resolveIpv6Prefix } from '../net/client-key.ts';
import { clientIp } from '../pipeline/client-address.ts';
import { contextClientIp } from '../pipeline/context.ts';
import { InternalError, TooManyRequestsError } from '../errors/index.ts';
import type { Logger } from '../logger/index.ts';
import {
  type AnyContext,
  type FrameworkAnswer,
  type FrameworkAnswerHeader,
  type Hooks,
  withHookTraits,
} from '../types/index.ts';
import { memoryRateLimitStore, type RateLimitHit, type RateLimitStore } from './rate-limit-store.ts';
import { setResponseHeaders, splitList } from '../pipeline/response-headers.ts';

/** The phase a limit is checked in. */
export type RateLimitPhase = 'onRequest' | 'preBody' | 'beforeHandle';

/**
 * Names the counter a request is charged to. In the `onRequest` phase it gets the request only
 * (and may be called again with the context's request when the response is sent, so it must
 * depend on the request alone); in `preBody` and `beforeHandle` it also gets the context, for
 * identity-based limits (`ctx.state.user.sub`). Undefined falls back to the client address.
 */
export type RateLimitKey = (
  request: Request,
  ctx?: AnyContext,
) => string | undefined | Promise<string | undefined>;

/** Options of `rateLimit()`. */
export interface RateLimitOptions {
  /** Window length in ms (a positive integer). Required. */
  windowMs: number;
  /** Requests allowed per key per window (a positive integer). Required. */
  max: number;
  /**
   * The client key; default the client address (`clientIp`, which honours the App's proxy
   * posture), or the single shared key `unknown` when the address cannot be known (in-process
   * requests, an adapter that gives none): all such requests then share one budget, which fails
   * safe (they are limited together) rather than open.
   */
  key?: RateLimitKey;
  /**
   * How the default key counts IPv6 clients: by the network of this prefix length (an integer from
   * 1 to 128); default 64. A subscriber is given at least a /64 and may use any address in it, so a
   * key per address would give each one an unlimited quota by rotating. IPv4 clients (IPv4-mapped
   * included) are counted per address. 128 counts each IPv6 address alone. Not used with `key`.
   */
  ipv6Prefix?: number;
  /**
   * Where the limit is checked; default `onRequest`, before routing, so a flood of 404s is limited
   * too. `preBody` or `beforeHandle` run after authentication hooks, for limits per identity.
   */
  phase?: RateLimitPhase;
  /** The counter store; default a new `memoryRateLimitStore()` (one process). */
  store?: RateLimitStore;
  /**
   * The policy name in the RateLimit fields and in store keys (`<name>:<key>`); default `default`.
   * Give each policy sharing a store its own name. Letters, digits, `-`, `_` and `.`, up to 64.
   */
  name?: string;
  /** Send the RateLimit and RateLimit-Policy fields; default true. `Retry-After` is always sent on 429. */
  headers?: boolean;
  /**
   * Also send the single-valued fields of the draft's earlier revisions (-00 to -06), which many
   * clients still read: `RateLimit-Limit` (max), `RateLimit-Remaining` and `RateLimit-Reset`
   * (seconds until the window resets), as plain integers. They hold one policy: the first policy
   * of a request to set them wins. Needs `headers`. Default false.
   */
  legacyHeaders?: boolean;
  /**
   * When the store fails: false (default) answers a generic 500, so an outage never silently
   * removes the limit; true lets the request through without counting it.
   */
  failOpen?: boolean;
  /** Where store failures are logged (`error` level); default nowhere. Pass `app.logger`. */
  logger?: Logger;
}

/** `rateLimit` options after validation. */
export interface ResolvedRateLimitOptions {
  readonly windowMs: number;
  readonly max: number;
  readonly key: RateLimitKey | undefined;
  readonly ipv6Prefix: number;
  readonly phase: RateLimitPhase;
  readonly store: RateLimitStore;
  readonly name: string;
  readonly headers: boolean;
  readonly legacyHeaders: boolean;
  readonly failOpen: boolean;
  readonly logger: Logger | undefined;
}

/** The key used when neither the key function nor the client address gives one. */
export const UNKNOWN_CLIENT_KEY = 'unknown';

const PHASES: readonly RateLimitPhase[] = ['onRequest', 'preBody', 'beforeHandle'];

/** Latest counters kept for answering RateLimit fields in onSend (onRequest phase), per instance. */
const MAX_SNAPSHOTS = 10_000;

function isPolicyName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok =
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x2d ||
      c === 0x5f ||
      c === 0x2e;
    if (!ok) return false;
  }
  return true;
}

function positiveInteger(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`rateLimit option "${option}" must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function optionalBoolean(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`rateLimit option "${option}" must be a boolean`);
  return value;
}

/** Validates `rateLimit` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveRateLimitOptions(options: RateLimitOptions): ResolvedRateLimitOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('rateLimit options must be an object with windowMs and max');
  }
  const windowMs = positiveInteger('windowMs', options.windowMs);
  const max = positiveInteger('max', options.max);
  if (options.key !== undefined && typeof options.key !== 'function') {
    throw new TypeError('rateLimit option "key" must be a function');
  }
  const phase = options.phase ?? 'onRequest';
  if (!PHASES.includes(phase)) {
    throw new TypeError(`rateLimit option "phase" must be one of ${PHASES.join(', ')}, got ${String(phase)}`);
  }
  const store = options.store ?? memoryRateLimitStore();
  if (typeof store !== 'object' || store === null || typeof store.hit !== 'function') {
    throw new TypeError('rateLimit option "store" must be a RateLimitStore (an object with a hit method)');
  }
  const name = options.name ?? 'default';
  if (typeof name !== 'string' || !isPolicyName(name)) {
    throw new TypeError(
      `rateLimit option "name" must be 1 to 64 letters, digits, "-", "_" or ".", got ${String(name)}`,
    );
  }
  const headers = optionalBoolean('headers', options.headers, true);
  const legacyHeaders = optionalBoolean('legacyHeaders', options.legacyHeaders, false);
  if (legacyHeaders && !headers) {
    throw new TypeError('rateLimit option "legacyHeaders" needs "headers" (it adds to the RateLimit fields)');
  }
  const logger = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function')
  ) {
    throw new TypeError('rateLimit option "logger" must be a Logger (an object with an error method)');
  }
  return Object.freeze({
    windowMs,
    max,
    key: options.key,
    ipv6Prefix: resolveIpv6Prefix('rateLimit', options.ipv6Prefix),
    phase,
    store,
    name,
    headers,
    legacyHeaders,
    failOpen: optionalBoolean('failOpen', options.failOpen, false),
    logger,
  });
}

/** The RateLimit-Policy member of a policy: `"name";q=max;w=seconds`. */
export function rateLimitPolicyField(name: string, max: number, windowMs: number): string {
  // w is an sf-integer of seconds; a sub-second window still reports 1.
  return `"${name}";q=${max};w=${Math.max(1, Math.ceil(windowMs / 1000))}`;
}

/** The RateLimit member for a counter: `"name";r=remaining;t=seconds-to-reset`. */
export function rateLimitField(name: string, max: number, hit: RateLimitHit, now: number): string {
  return `"${name}";r=${Math.max(0, max - hit.count)};t=${secondsUntil(hit.resetAt, now)}`;
}

function secondsUntil(resetAt: number, now: number): number {
  return Math.max(0, Math.ceil((resetAt - now) / 1000));
}

function isHit(value: unknown): value is RateLimitHit {
  const hit = value as RateLimitHit;
  return (
    typeof value === 'object' && value !== null && Number.isFinite(hit.count) && Number.isFinite(hit.resetAt)
  );
}

/** True for a promise or any other thenable (a store written against another promise library). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** A list field value with `member` added, unless the list already has a member for this policy. */
function withMember(current: string | null, policy: string, member: string): string {
  if (current === null || current === '') return member;
  const prefix = `"${policy}";`;
  if (splitList(current).some((m) => m.startsWith(prefix))) return current;
  return `${current}, ${member}`;
}

/**
 * Hooks limiting each client key to `max` requests per `windowMs`. Register them with `app.use`
 * (every route and, in the default `onRequest` phase, unmatched paths), on a group, or on a route.
 *
 * @example
 * app.use(rateLimit({ windowMs: 60_000, max: 100 }));
 */
export function rateLimit(options: RateLimitOptions): Hooks {
  const policy = resolveRateLimitOptions(options);
  return withHookTraits(rateLimitHooks(policy), { answers: [rateLimitAnswer(policy.headers)] });
}

/** The 429 a limit answers, for the OpenAPI document of every route it covers. */
function rateLimitAnswer(withFields: boolean): FrameworkAnswer {
  const text = { type: 'string' } as const;
  const headers: Record<string, FrameworkAnswerHeader> = {
    'Retry-After': {
      description: 'Seconds to wait before retrying (RFC 9110 §10.2.3)',
      schema: { type: 'integer', minimum: 0 },
      required: true,
    },
  };
  if (withFields) {
    headers.RateLimit = {
      description: 'Remaining quota, per policy (RFC 9651 list)',
      schema: text,
      required: true,
    };
    headers['RateLimit-Policy'] = {
      description: 'The quota of each policy (RFC 9651 list)',
      schema: text,
      required: true,
    };
  }
  return { status: 429, description: 'Too many requests: a rate limit is exhausted', headers };
}

function rateLimitHooks(policy: ResolvedRateLimitOptions): Hooks {
  const { windowMs, max, store, name, phase, failOpen, logger } = policy;
  const policyField = rateLimitPolicyField(name, max, windowMs);
  const snapshots = new Map<string, RateLimitHit>();

  const keyOf = async (request: Request, ctx: AnyContext | undefined): Promise<string> => {
    let key = policy.key === undefined ? undefined : await policy.key(request, ctx);
    if (key !== undefined && typeof key !== 'string') {
      throw new TypeError(
        `The rateLimit key function of policy "${name}" returned a ${typeof key}, not a string`,
      );
    }
    if (key === undefined) {
      const address = clientIp(request);
      key = address === undefined ? UNKNOWN_CLIENT_KEY : clientKey(address, policy.ipv6Prefix);
    }
    return `${name}:${key}`;
  };

  /** Counts the request; undefined when the store failed and `failOpen` lets it through. */
  const count = async (storeKey: string): Promise<RateLimitHit | undefined> => {
    try {
      const hit = await store.hit(storeKey, windowMs);
      if (!isHit(hit)) throw new TypeError('The store answered something other than { count, resetAt }');
      return hit;
    } catch (error) {
      logger?.error('The rate limit store failed', { policy: name, failOpen, error });
      if (failOpen) return undefined;
      // Generic on purpose: the store's own message (hosts, ports) stays in the log.
      throw new InternalError({ detail: 'The rate limit could not be checked', cause: error });
    }
  };

  const refuse = (hit: RateLimitHit, now: number, headers: Record<string, string> | undefined): never => {
    const seconds = Math.max(1, secondsUntil(hit.resetAt, now));
    throw new TooManyRequestsError({
      detail: `Too many requests: at most ${max} per ${Math.ceil(windowMs / 1000)} s; retry in ${seconds} s`,
      retryAfterSeconds: seconds,
      headers,
    });
  };

  /** The fields for a counter, as [name, value] pairs; the legacy ones only with `legacyHeaders`. */
  const fieldList = (hit: RateLimitHit, now: number): [string, string][] => {
    const list: [string, string][] = [
      ['ratelimit-policy', policyField],
      ['ratelimit', rateLimitField(name, max, hit, now)],
    ];
    if (policy.legacyHeaders) {
      list.push(
        ['ratelimit-limit', String(max)],
        ['ratelimit-remaining', String(Math.max(0, max - hit.count))],
        ['ratelimit-reset', String(secondsUntil(hit.resetAt, now))],
      );
    }
    return list;
  };
  const fields = (hit: RateLimitHit, now: number): Record<string, string> =>
    Object.fromEntries(fieldList(hit, now));
  /** The list fields gain a member; a single-valued legacy field keeps the first policy's value. */
  const merged = (current: (name: string) => string | null, hit: RateLimitHit, now: number) =>
    fieldList(hit, now).map(([field, value]): [string, string] => {
      const existing = current(field);
      if (field === 'ratelimit-policy' || field === 'ratelimit')
        return [field, withMember(existing, name, value)];
      return [field, existing ?? value];
    });

  if (phase === 'onRequest') {
    const remember = (storeKey: string, hit: RateLimitHit): void => {
      snapshots.delete(storeKey);
      snapshots.set(storeKey, hit);
      if (snapshots.size > MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value as string);
    };
    const hooks: Hooks = {
      async onRequest(request) {
        const storeKey = await keyOf(request, undefined);
        const hit = await count(storeKey);
        if (hit === undefined) return;
        const now = Date.now();
        if (policy.headers) remember(storeKey, hit);
        if (hit.count > max) refuse(hit, now, policy.headers ? fields(hit, now) : undefined);
      },
    };
    if (policy.headers) {
      // The context's request is not the object onRequest saw, so the counter is found again by
      // key: the fields report the latest state of the client's window.
      hooks.onSend = async (response, ctx) => {
        if (ctx === undefined) return;
        let storeKey: string;
        try {
          storeKey = await keyOf(ctx.request, undefined);
        } catch {
          // Failing here costs the response its fields, never its status.
          return;
        }
        const hit = snapshots.get(storeKey);
        const now = Date.now();
        if (hit === undefined || hit.resetAt <= now) return;
        const current = response.headers;
        return setResponseHeaders(
          response,
          merged((field) => current.get(field), hit, now),
        );
      };
    }
    return hooks;
  }

  // preBody / beforeHandle: the fields go through ctx.set.headers, which the pipeline puts on
  // every response of the request, the 429 included. With a synchronous key function and store
  // (the memory store) the check makes no promise: it runs on every request of the route.
  const apply = (ctx: AnyContext, hit: RateLimitHit | undefined): void => {
    if (hit === undefined) return;
    const now = Date.now();
    if (policy.headers) {
      const pending = ctx.set.headers;
      for (const [field, value] of merged((f) => pending.get(f), hit, now)) pending.set(field, value);
    }
    if (hit.count > max) refuse(hit, now, undefined);
  };
  const checkAnswer = (hit: unknown): RateLimitHit => {
    if (!isHit(hit)) throw new TypeError('The store answered something other than { count, resetAt }');
    return hit;
  };
  const storeFailed = (error: unknown): undefined => {
    logger?.error('The rate limit store failed', { policy: name, failOpen, error });
    if (failOpen) return undefined;
    throw new InternalError({ detail: 'The rate limit could not be checked', cause: error });
  };
  const countFor = (ctx: AnyContext, key: unknown): void | Promise<void> => {
    if (key !== undefined && typeof key !== 'string') {
      throw new TypeError(
        `The rateLimit key function of policy "${name}" returned a ${typeof key}, not a string`,
      );
    }
    const storeKey = `${name}:${key ?? contextClientIp(ctx) ?? UNKNOWN_CLIENT_KEY}`;
    let answer: RateLimitHit | Promise<RateLimitHit>;
    try {
      answer = store.hit(storeKey, windowMs);
    } catch (error) {
      return apply(ctx, storeFailed(error));
    }
    if (isThenable(answer)) {
      return Promise.resolve(answer)
        .then(checkAnswer)
        .then(
          (hit) => apply(ctx, hit),
          (error: unknown) => apply(ctx, storeFailed(error)),
        );
    }
    let hit: RateLimitHit | undefined;
    try {
      hit = checkAnswer(answer);
    } catch (error) {
      hit = storeFailed(error);
    }
    return apply(ctx, hit);
  };
  const guard = (ctx: AnyContext): void | Promise<void> => {
    const key = policy.key === undefined ? undefined : policy.key(ctx.request, ctx);
    return isThenable(key)
      ? Promise.resolve(key).then((resolved) => countFor(ctx, resolved))
      : countFor(ctx, key);
  };
  return phase === 'preBody'
    ? { preBody: (ctx) => guard(ctx as unknown as AnyContext) }
    : { beforeHandle: (ctx) => guard(ctx) };
}

/**
 * Auto-ban: a client whose requests keep failing (probing for paths, guessing credentials, running
 * into the WAF or the rate limit) collects strikes; `maxStrikes` strikes within `windowMs` ban it
 * for `banMs`, and every request it sends meanwhile is refused before routing. Strikes and bans live
 * in an `AutoBanStore`, so a networked store shares them across the instances of a service.
 */
import { clientKey, resolveIpv6Prefix } from '../net/client-key.ts';
import { clientIp } from '../pipeline/client-address.ts';
import { ForbiddenError, InternalError, TooManyRequestsError } from '../errors/index.ts';
import type { Logger } from '../logger/index.ts';
import { type Hooks, withHookTraits } from '../types/index.ts';
import {
  type AutoBanPolicy,
  type AutoBanStore,
  type AutoBanStrike,
  memoryAutoBanStore,
} from './auto-ban-store.ts';

/** What `onBan` learns when a client is banned. */
export interface AutoBanEvent {
  /** The client struck: its address (as `clientIp` resolved it), or for IPv6 its network (`2001:db8:1:2::/64`, see `ipv6Prefix`). */
  readonly address: string;
  /** Strikes that led to the ban. */
  readonly strikes: number;
  /** When the ban ends, in ms since the epoch. */
  readonly bannedUntil: number;
}

/** Options of `autoBan()`. */
export interface AutoBanOptions {
  /** The strike window in ms (a positive integer), starting at a client's first strike; default 60000. */
  windowMs?: number;
  /** Strikes within one window that ban a client (a positive integer); default 20. */
  maxStrikes?: number;
  /** How long a ban lasts, in ms (a positive integer); default 600000 (10 minutes). */
  banMs?: number;
  /**
   * Response statuses that count as a strike; default 401, 403, 404 and 429 (failed credentials,
   * refusals, the WAF's 403 included, probes for paths that do not exist, and rate-limit
   * refusals). An empty list leaves only strikes made with `hooks.strike(request)`.
   */
  statuses?: readonly number[];
  /** The store; default a new `memoryAutoBanStore()` (one process). */
  store?: AutoBanStore;
  /**
   * The status of the refusal sent to a banned client: 403 (default; RFC 9110 §15.5.4, the server
   * refuses this client) or 429 (RFC 6585 §4, for clients that only back off on 429). Both carry
   * `Retry-After` with the seconds left in the ban (RFC 9110 §10.2.3).
   */
  status?: 403 | 429;
  /**
   * When the store fails: true (default) lets the request through and drops the strike, so an
   * outage of the ban list never takes the service down; false answers a generic 500 instead of
   * serving a client whose ban could not be checked. A failed strike is only logged in both modes.
   */
  failOpen?: boolean;
  /**
   * IPv6 clients are struck and banned by the network of this prefix length (1 to 128); default 64,
   * the block one subscriber gets and may rotate addresses in. IPv4 clients are struck per address.
   */
  ipv6Prefix?: number;
  /** Addresses never struck nor banned (health checkers, your own monitoring); default none. */
  exempt?: (address: string) => boolean;
  /** Called once per ban, when it starts. Errors it throws or rejects with are ignored. */
  onBan?: (event: AutoBanEvent) => void | Promise<void>;
  /** Where store failures are logged (`error` level); default nowhere. Pass `app.logger`. */
  logger?: Logger;
}

/** `autoBan` options after validation. */
export interface ResolvedAutoBanOptions {
  readonly policy: AutoBanPolicy;
  readonly statuses: ReadonlySet<number>;
  readonly store: AutoBanStore;
  readonly status: 403 | 429;
  readonly failOpen: boolean;
  readonly exempt: ((address: string) => boolean) | undefined;
  readonly ipv6Prefix: number;
  readonly onBan: ((event: AutoBanEvent) => void | Promise<void>) | undefined;
  readonly logger: Logger | undefined;
}

/** The hooks `autoBan()` returns, plus `strike` for strikes your own code decides on. */
export interface AutoBanHooks extends Hooks {
  /**
   * Counts one strike against the client that sent `request` (the raw request or `ctx.request`),
   * e.g. for a failed login answered with 200. Resolves to the client's state, or undefined when the
   * address is unknown, exempt, or the store failed. Never rejects.
   */
  strike(request: Request): Promise<AutoBanStrike | undefined>;
}

/** The statuses that count as strikes by default. */
export const DEFAULT_AUTO_BAN_STATUSES: readonly number[] = Object.freeze([401, 403, 404, 429]);

function positiveInteger(option: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`autoBan option "${option}" must be a positive integer, got ${String(n)}`);
  }
  return n;
}

function optionalFunction<T>(option: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`autoBan option "${option}" must be a function`);
  }
  return value;
}

/** Validates `autoBan` options and fills defaults; throws a TypeError or RangeError naming the option. */
export function resolveAutoBanOptions(options: AutoBanOptions = {}): ResolvedAutoBanOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('autoBan options must be an object');
  const policy: AutoBanPolicy = Object.freeze({
    windowMs: positiveInteger('windowMs', options.windowMs, 60_000),
    maxStrikes: positiveInteger('maxStrikes', options.maxStrikes, 20),
    banMs: positiveInteger('banMs', options.banMs, 600_000),
  });
  const statuses = options.statuses ?? DEFAULT_AUTO_BAN_STATUSES;
  if (!Array.isArray(statuses)) throw new TypeError('autoBan option "statuses" must be an array of statuses');
  for (const s of statuses) {
    if (!Number.isInteger(s) || s < 100 || s > 599) {
      throw new RangeError(`autoBan option "statuses" holds ${String(s)}, not an HTTP status (100 to 599)`);
    }
  }
  const store = options.store ?? memoryAutoBanStore();
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.strike !== 'function' ||
    typeof store.bannedUntil !== 'function'
  ) {
    throw new TypeError('autoBan option "store" must be an AutoBanStore (strike and bannedUntil methods)');
  }
  const status = options.status ?? 403;
  if (status !== 403 && status !== 429) {
    throw new TypeError(`autoBan option "status" must be 403 or 429, got ${String(status)}`);
  }
  const failOpen = options.failOpen ?? true;
  if (typeof failOpen !== 'boolean') throw new TypeError('autoBan option "failOpen" must be a boolean');
  const logger = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function')
  ) {
    throw new TypeError('autoBan option "logger" must be a Logger (an object with an error method)');
  }
  return Object.freeze({
    policy,
    statuses: new Set(statuses),
    store,
    status,
    failOpen,
    exempt: optionalFunction('exempt', options.exempt),
    ipv6Prefix: resolveIpv6Prefix('autoBan', options.ipv6Prefix),
    onBan: optionalFunction('onBan', options.onBan),
    logger,
  });
}

/** The refusal for a banned client: a problem document with `Retry-After`. */
function refusal(status: 403 | 429, bannedUntil: number, now: number): Error {
  const seconds = Math.max(1, Math.ceil((bannedUntil - now) / 1000));
  const detail = `This client is banned after repeated failed requests; retry in ${seconds} s`;
  if (status === 429) return new TooManyRequestsError({ detail, retryAfterSeconds: seconds });
  return new ForbiddenError({ detail, headers: { 'retry-after': String(seconds) } });
}

/**
 * Hooks banning clients whose requests keep failing. onRequest refuses a banned client before
 * routing; onResponse counts a strike for every response whose status is in `statuses`. Register
 * them in `new App({ hooks })` so unmatched paths (404, 405) count too: hooks given to `app.use`
 * only see them when a guard answered.
 *
 * @example
 * const app = new App({ hooks: [autoBan({ maxStrikes: 10, banMs: 15 * 60_000 })] });
 */
export function autoBan(options?: AutoBanOptions): AutoBanHooks {
  const resolved = resolveAutoBanOptions(options);
  const { policy, statuses, store, failOpen, logger, exempt, onBan } = resolved;
  // Requests this hook refused: their own 403/429 is not a new strike (a ban is never self-extending).
  const refused = new WeakSet<Request>();

  const addressOf = (request: Request): string | undefined => {
    // The App's trusted address only: a raw X-Forwarded-For would let anyone ban anyone.
    const address = clientIp(request);
    if (address === undefined || exempt?.(address) === true) return undefined;
    return clientKey(address, resolved.ipv6Prefix);
  };

  const strike = async (request: Request): Promise<AutoBanStrike | undefined> => {
    let address: string | undefined;
    let result: AutoBanStrike;
    try {
      address = addressOf(request);
      if (address === undefined) return undefined;
      result = await store.strike(address, policy);
    } catch (error) {
      logger?.error('The auto-ban store failed to record a strike', { error });
      return undefined;
    }
    if (result.banned && result.bannedUntil !== undefined && onBan !== undefined) {
      try {
        const out = onBan({ address, strikes: result.strikes, bannedUntil: result.bannedUntil });
        if (out instanceof Promise) out.catch(() => {});
      } catch {
        // A failing listener must not turn a response into an error.
      }
    }
    return result;
  };

  const hooks: Hooks = {
    async onRequest(request) {
      const address = addressOf(request);
      if (address === undefined) return;
      let until: number | undefined;
      try {
        until = await store.bannedUntil(address);
      } catch (error) {
        logger?.error('The auto-ban store failed', { failOpen, error });
        if (failOpen) return;
        // Generic on purpose: the store's own message (hosts, ports) stays in the log.
        throw new InternalError({ detail: 'The ban list could not be checked', cause: error });
      }
      const now = Date.now();
      if (until === undefined || until <= now) return;
      refused.add(request);
      throw refusal(resolved.status, until, now);
    },
    async onResponse(response, _ctx, request) {
      if (!statuses.has(response.status) || refused.has(request)) return;
      await strike(request);
    },
  };
  // Not enumerable: the App accepts only hook phases as a Hooks object's own keys.
  Object.defineProperty(hooks, 'strike', { value: strike, enumerable: false });
  return withHookTraits(hooks, {
    answers: [
      {
        status: resolved.status,
        description: 'The client is banned for a while after repeated refusals',
        headers: {
          'Retry-After': {
            description: 'Seconds until the ban ends',
            schema: { type: 'integer', minimum: 0 },
            required: true,
          },
        },
      },
    ],
  }) as AutoBanHooks;
}

/**
 * Where verification keys come from: a static JWK set, an HTTPS URL behind a cache, or a resolver.
 * The URL cache serves a set while fresh, refetches when it expires or when a token names an unknown
 * `kid` (at most once per cooldown), and keeps serving the last good set for `maxStaleSeconds` while
 * the endpoint fails, so a short identity-provider outage does not lock every caller out.
 */
import { HttpError, type Logger } from '@charter/core';
import type { Jwk, JwtHeader } from '@charter/jwt';
import { fetchJwks, JwksFetchError } from './jwks-fetch.ts';
import { isJwkSetShape, type ParsedJwk, type ParsedJwkSet, parseJwkSet } from './jwk-set.ts';
import type { JwkResolver, ResolvedJwkOptions } from './options.ts';
import { selectKeys } from './select-key.ts';

/** A key to try: the public JWK of a parsed set (one object per set version) or a resolver's CryptoKey. */
export interface KeyCandidate {
  readonly kid: string | undefined;
  readonly key: Jwk | CryptoKey;
}

/** The keys to try for a token. */
export interface JwksSource {
  /** Candidate keys for a token with this header, best first; empty when none fits. */
  candidates(header: JwtHeader): Promise<readonly KeyCandidate[]>;
}

/** No key set is available (the endpoint fails and no cached set may be used, or a resolver failed): 503. */
export class JwksUnavailableError extends Error {
  /** Seconds until the source will try again. */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JwksUnavailableError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type SourceSettings = Pick<
  ResolvedJwkOptions,
  | 'fetchTtlSeconds'
  | 'maxStaleSeconds'
  | 'cooldownSeconds'
  | 'timeoutMs'
  | 'maxJwksBytes'
  | 'fetch'
  | 'logger'
  | 'now'
>;

const fromSet = (keys: readonly ParsedJwk[]): KeyCandidate[] =>
  keys.map((jwk) => ({ kid: jwk.kid, key: jwk.jwk }));

/** A fixed set, parsed once: an unknown `kid` is simply unknown. */
export function staticJwksSource(set: ParsedJwkSet): JwksSource {
  return { candidates: async (header) => fromSet(selectKeys(set, header).candidates) };
}

interface CacheEntry {
  readonly set: ParsedJwkSet;
  readonly freshUntil: number;
}

/** Where a URL is logged: no query or fragment, which could carry a tenant secret. */
const logUrl = (url: URL): string => `${url.origin}${url.pathname}`;

/** A JWK set fetched from an HTTPS URL and cached (see the module comment for the rules). */
export function urlJwksSource(url: URL, settings: SourceSettings): JwksSource {
  const { now, logger } = settings;
  const cooldownMs = settings.cooldownSeconds * 1000;
  const staleMs = settings.maxStaleSeconds * 1000;
  let cache: CacheEntry | undefined;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let lastFailure: { readonly at: number; readonly error: JwksFetchError } | undefined;
  let inflight: Promise<void> | undefined;

  /** Seconds the response stays fresh: `max-age` within [cooldown, fetchTtl], else fetchTtl. */
  const lifetimeOf = (maxAge: number | undefined): number =>
    maxAge === undefined
      ? settings.fetchTtlSeconds
      : Math.min(settings.fetchTtlSeconds, Math.max(maxAge, settings.cooldownSeconds));

  const fetchOnce = async (): Promise<void> => {
    lastAttemptAt = now();
    try {
      const result = await fetchJwks(url, {
        fetch: settings.fetch,
        timeoutMs: settings.timeoutMs,
        maxBytes: settings.maxJwksBytes,
      });
      const at = now();
      cache = { set: result.set, freshUntil: at + lifetimeOf(result.maxAgeSeconds) * 1000 };
      lastFailure = undefined;
    } catch (error) {
      const failure =
        error instanceof JwksFetchError
          ? error
          : new JwksFetchError('network', String(error), { cause: error });
      const at = now();
      lastFailure = { at, error: failure };
      const usable = cache !== undefined && at < cache.freshUntil + staleMs;
      const fields = { url: logUrl(url), reason: failure.reason, error: failure.message };
      if (usable) logger?.warn('JWKS fetch failed; the cached key set is still used', fields);
      else logger?.error('JWKS fetch failed; no usable key set', fields);
    }
  };

  // One fetch at a time: concurrent requests wait for the same one.
  const refresh = (): Promise<void> => {
    inflight ??= fetchOnce().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };

  const unavailable = (at: number): JwksUnavailableError => {
    const retryAt = Math.max(at, (lastFailure?.at ?? at) + cooldownMs);
    return new JwksUnavailableError(
      `no usable JWK set from ${logUrl(url)}${lastFailure === undefined ? '' : `: ${lastFailure.error.message}`}`,
      Math.max(1, Math.ceil((retryAt - at) / 1000)),
      { cause: lastFailure?.error },
    );
  };

  /** The set to select from now: fresh, refreshed, or stale within `maxStaleSeconds`. */
  const currentSet = async (): Promise<ParsedJwkSet> => {
    const start = now();
    if (cache !== undefined && start < cache.freshUntil) return cache.set;
    // After a failure, wait out the cooldown before trying again: an outage is not hammered per request.
    const backingOff = lastFailure !== undefined && start - lastFailure.at < cooldownMs;
    if (!backingOff) await refresh();
    const at = now();
    if (cache !== undefined && at < cache.freshUntil + staleMs) return cache.set;
    throw unavailable(at);
  };

  return {
    async candidates(header) {
      let set = await currentSet();
      let selection = selectKeys(set, header);
      // An unknown kid usually means the provider rotated its keys: refetch once, but never sooner than
      // the cooldown after the last fetch, so random kids cannot turn every request into a fetch.
      if (!selection.kidKnown && now() - lastAttemptAt >= cooldownMs) {
        await refresh();
        set = cache?.set ?? set;
        selection = selectKeys(set, header);
      }
      return fromSet(selection.candidates);
    },
  };
}

const isCryptoKey = (value: unknown): value is CryptoKey =>
  typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;

/** Keys found by an application function, per token header. */
export function resolverJwksSource(resolve: JwkResolver, logger: Logger | undefined): JwksSource {
  // Parsed per returned object: a resolver that returns the same set object reuses its imported keys
  // (@charter/jwt caches imports per key object).
  const parsed = new WeakMap<object, ParsedJwkSet>();
  const fail = (message: string, cause?: unknown): JwksUnavailableError => {
    logger?.error('The jwk resolver failed', { error: message });
    return new JwksUnavailableError(`the jwk resolver failed: ${message}`, 1, { cause });
  };

  return {
    async candidates(header) {
      let result: Awaited<ReturnType<JwkResolver>>;
      try {
        result = await resolve(header);
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw fail((error as Error)?.message ?? String(error), error);
      }
      if (result === undefined) return [];
      if (isCryptoKey(result)) {
        // A symmetric or signing-only key cannot verify a token signed with a public-key algorithm.
        return result.type !== 'secret' && result.usages.includes('verify')
          ? [{ kid: undefined, key: result }]
          : [];
      }
      if (typeof result !== 'object' || result === null) {
        throw fail('it returned neither a JWK set, a JWK, a CryptoKey nor undefined');
      }
      const single = !isJwkSetShape(result);
      let set = parsed.get(result);
      if (set === undefined) {
        try {
          set = parseJwkSet(single ? { keys: [result] } : result);
        } catch (error) {
          throw fail((error as Error).message, error);
        }
        parsed.set(result, set);
      }
      // A single key was chosen for this header by the resolver: its kid is compared only when it has one.
      const kid = single && set.keys[0]?.kid === undefined ? undefined : header.kid;
      return fromSet(selectKeys(set, { alg: header.alg, kid }).candidates);
    },
  };
}

/** The source the options describe. */
export function createJwksSource(options: ResolvedJwkOptions): JwksSource {
  const { source } = options;
  switch (source.kind) {
    case 'set':
      return staticJwksSource(source.set);
    case 'url':
      return urlJwksSource(source.url, options);
    case 'resolver':
      return resolverJwksSource(source.resolve, options.logger);
  }
}

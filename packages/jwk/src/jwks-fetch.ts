/**
 * One fetch of a JWK set over HTTPS: bounded in time and size, redirects refused, JSON parsed with
 * the prototype-pollution guard, and the response's freshness (RFC 9111 §4.2) read from its headers.
 */
import { safeJsonParse } from '@charter/core';
import { parseJwkSet, type ParsedJwkSet } from './jwk-set.ts';
import type { JwksFetch } from './options.ts';

/** Why a JWKS fetch failed. */
export type JwksFetchFailure = 'network' | 'timeout' | 'status' | 'too-large' | 'malformed';

/** A failed JWKS fetch; the source keeps serving its previous set while it may. */
export class JwksFetchError extends Error {
  readonly reason: JwksFetchFailure;
  constructor(reason: JwksFetchFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JwksFetchError';
    this.reason = reason;
  }
}

/** What a successful fetch gives: the set and the freshness lifetime the server asked for, if any. */
export interface JwksFetchResult {
  readonly set: ParsedJwkSet;
  /** Seconds the response is fresh for (`max-age` minus `Age`; 0 for `no-store`/`no-cache`), if stated. */
  readonly maxAgeSeconds: number | undefined;
}

/** Settings of one fetch. */
export interface JwksFetchSettings {
  readonly fetch: JwksFetch | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

// RFC 7517 §8.5 registers application/jwk-set+json; many servers answer application/json.
const ACCEPT = 'application/jwk-set+json, application/json;q=0.9';

function isDigits(text: string): boolean {
  if (text === '' || text.length > 10) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * The freshness lifetime of a response in seconds, from `Cache-Control` (RFC 9111 §5.2.2): `no-store`
 * and `no-cache` give 0, `max-age` gives its value less the `Age` (§4.2.3); undefined when neither is set.
 * `s-maxage` is for shared caches (§5.2.2.10) and this cache is private to the app: it is ignored.
 */
export function freshnessLifetime(headers: Headers): number | undefined {
  const field = headers.get('cache-control');
  if (field === null) return undefined;
  let maxAge: number | undefined;
  for (const part of field.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === 'no-store' || name === 'no-cache') return 0;
    if (name !== 'max-age' || eq === -1) continue;
    let value = part.slice(eq + 1).trim();
    // §5.2: the token form is the one to send, but a quoted-string must be accepted too.
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    // §4.2.1: a cache with more than one max-age, or an invalid one, treats the response as stale.
    if (!isDigits(value) || maxAge !== undefined) return 0;
    maxAge = Number(value);
  }
  if (maxAge === undefined) return undefined;
  const age = headers.get('age');
  const ageSeconds = age !== null && isDigits(age.trim()) ? Number(age.trim()) : 0;
  return Math.max(0, maxAge - ageSeconds);
}

async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = response.headers.get('content-length');
  if (declared !== null && isDigits(declared.trim()) && Number(declared.trim()) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new JwksFetchError(
      'too-large',
      `the JWKS response declares ${declared.trim()} bytes, more than ${maxBytes}`,
    );
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new JwksFetchError('too-large', `the JWKS response is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function attempt(url: URL, settings: JwksFetchSettings, signal: AbortSignal): Promise<JwksFetchResult> {
  const fetcher: JwksFetch = settings.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let response: Response;
  try {
    response = await fetcher(url.href, {
      method: 'GET',
      headers: { accept: ACCEPT },
      // The configured URL is the trust anchor: a redirect could hand key selection to another origin.
      redirect: 'error',
      signal,
    });
  } catch (error) {
    throw new JwksFetchError(
      'network',
      `the JWKS request failed: ${(error as Error)?.message ?? String(error)}`,
      {
        cause: error,
      },
    );
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    throw new JwksFetchError('status', `the JWKS endpoint answered ${response.status}, not 200`);
  }
  const bytes = await readLimited(response, settings.maxBytes);
  let set: ParsedJwkSet;
  try {
    set = parseJwkSet(safeJsonParse(bytes));
  } catch (error) {
    throw new JwksFetchError(
      'malformed',
      `the JWKS response is not a usable JWK set: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return { set, maxAgeSeconds: freshnessLifetime(response.headers) };
}

/**
 * Fetches and parses the JWK set at `url`. Throws JwksFetchError on a network failure, a timeout
 * (which covers the body too), a status other than 200, a body over `maxBytes`, or a malformed set.
 */
export async function fetchJwks(url: URL, settings: JwksFetchSettings): Promise<JwksFetchResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced as well as signalled, so even a fetch that ignores the signal cannot hold a request longer.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JwksFetchError('timeout', `the JWKS fetch took longer than ${settings.timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, settings.timeoutMs);
  });
  try {
    return await Promise.race([attempt(url, settings, controller.signal), timeout]);
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof JwksFetchError) {
      throw controller.signal.reason;
    }
    if (error instanceof JwksFetchError) throw error;
    throw new JwksFetchError(
      'network',
      `the JWKS fetch failed: ${(error as Error)?.message ?? String(error)}`,
      {
        cause: error,
      },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Representations rendered once, the first time they are asked for, and answered per request with
 * a lookup: strong entity tags (RFC 9110 §8.8.3) and `If-None-Match` (RFC 9110 §13.1.2) answered
 * 304 (RFC 9110 §15.4.5).
 */
import { ifNoneMatchMatches } from '@charter/core';

/**
 * Pages and Markdown: fresh for five minutes, so a deploy shows within that bound; then a cache
 * may keep serving the stale copy for up to a day while it revalidates in the background
 * (RFC 5861 §3), which the strong ETag makes a cheap 304. `public`: nothing here is personal.
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

/**
 * Not-found answers: a cache may store them but must ask again each time (RFC 9111 §5.2.2.4), so a
 * page published after the miss shows at once.
 */
export const NOT_FOUND_CACHE_CONTROL = 'no-cache';

/** Content-hashed asset names never change meaning: cache for a year, never revalidate (RFC 8246). */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** One response body rendered ahead of time, with its entity tag and the headers it is sent with. */
export interface Representation {
  readonly body: Uint8Array;
  /** Strong entity tag of `body`. */
  readonly etag: string;
  /** Every header of the 200 answer by lower-case name, `etag` included (frozen). */
  readonly headers: HeaderFields;
  /** The same minus the representation metadata a 304 must not carry (RFC 9110 §15.4.5). */
  readonly notModifiedHeaders: HeaderFields;
}

/**
 * Header fields by lower-case name, each once, frozen: what every request for a representation shares.
 * A record, not a frozen list of pairs: `new Headers()` reads a record's properties directly, where a
 * frozen list (or frozen pairs) goes through the iterator protocol, whose first use costs a process
 * about a millisecond, here on the compiled site's first answer (issue 18, item 6).
 */
export type HeaderFields = Readonly<Record<string, string>>;

/** What a page handler returns: the pipeline turns it into the Response (HEAD drops the body). */
export interface PageResult {
  readonly status: 200 | 304 | 404;
  readonly body?: Uint8Array | string;
  readonly headers: [string, string][] | HeaderFields;
}

const encoder = new TextEncoder();

/**
 * The strong entity tag of some bytes: the first 128 bits of their SHA-256, base64url, quoted
 * (RFC 9110 §8.8.3 etagc characters only); the same form as the framework's `entityTagOf`.
 */
export function strongEntityTag(body: Uint8Array): string {
  // Bun's hasher, as `html/assets.ts` uses: the start-up of the site loads no node:crypto.
  const digest = Bun.CryptoHasher.hash('sha256', body) as Buffer;
  return `"${digest.subarray(0, 16).toString('base64url')}"`;
}

// RFC 9110 §15.4.5: a 304 carries what a 200 would (ETag, Cache-Control, Vary, Link...) except
// the metadata that describes the omitted content.
const NOT_ON_304: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-language']);

/** Renders a body once: its bytes, its strong ETag and the header list of the 200 answer. */
export function representation(body: string | Uint8Array, headers: Record<string, string>): Representation {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const etag = strongEntityTag(bytes);
  const all: [string, string][] = Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]);
  all.push(['etag', etag]);
  return Object.freeze({
    body: bytes,
    etag,
    headers: headerFields(all),
    notModifiedHeaders: headerFields(all.filter(([name]) => !NOT_ON_304.has(name))),
  });
}

/** The fields of a header list, which names each field once (a repeated name throws). */
export function headerFields(pairs: readonly (readonly [string, string])[]): HeaderFields {
  // No prototype: a field name is only ever a key here.
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of pairs) {
    if (Object.hasOwn(fields, name)) throw new TypeError(`headerFields: the field ${name} is listed twice`);
    fields[name] = value;
  }
  return Object.freeze(fields);
}

/** What the page answers read of a request: the context, whose `headers` is the raw header map. */
export interface RequestHeaders {
  readonly headers: unknown;
}

/**
 * A request header field by its lower-case name, from the context's raw header map (repeated fields
 * already joined with ", "). Reading it there rather than from `ctx.request` keeps the wrapped Request
 * (its body guard and combined abort signal) from being built on every page view.
 */
export function requestHeader(ctx: RequestHeaders, name: string): string | null {
  return (ctx.headers as Readonly<Record<string, string | undefined>>)[name] ?? null;
}

/**
 * The answer for a rendered representation: 304 without content when `If-None-Match` matches its
 * tag (weak comparison, `*` and lists, RFC 9110 §13.1.2), else 200 with the bytes. A GET route
 * also answers HEAD, where the condition applies the same way (RFC 9110 §13.1.2).
 */
export function answer(ctx: RequestHeaders, rep: Representation): PageResult {
  const condition = requestHeader(ctx, 'if-none-match');
  if (condition !== null && ifNoneMatchMatches(condition, rep.etag)) {
    return { status: 304, headers: rep.notModifiedHeaders };
  }
  return { status: 200, body: rep.body, headers: rep.headers };
}

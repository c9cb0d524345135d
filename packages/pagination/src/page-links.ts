// Page links: the current request URL with its cursor parameter swapped, as `next`, `prev` and `first`
// links (relation types in the IANA registry, RFC 8288 §2.1.1) and as one `Link` header.
import { buildLinkHeader, type LinkEntry } from './link-header.ts';
import { MAX_CURSOR_LENGTH } from './limits.ts';

/** The relation types `buildPageLinks` writes. */
export type PageRel = 'next' | 'prev' | 'first';

/** Options of `buildPageLinks`. */
export interface PageLinksOptions {
  /** The current request URL, absolute (`ctx.request.url`). Its other query parameters are kept. */
  url: string | URL;
  /** Cursor of the next page (from `encodeCursor`); null or undefined when this is the last page. */
  next?: string | null | undefined;
  /** Cursor of the previous page; null or undefined when there is none. */
  prev?: string | null | undefined;
  /** True to add a `first` link: the URL without any cursor parameter. Default false. */
  first?: boolean | undefined;
  /** Name of the cursor query parameter; default `cursor` (give the `cursorParam` of `paginationQuery`). */
  cursorParam?: string | undefined;
}

/** The page links, three ways: a list, a map by relation, and the serialized `Link` header. */
export interface PageLinks {
  /** The links in the order next, prev, first (absent ones left out). */
  readonly links: readonly (LinkEntry & { readonly url: string; readonly rel: PageRel })[];
  /** Each link's absolute URL by relation type. */
  readonly urls: { readonly next?: string; readonly prev?: string; readonly first?: string };
  /** The `Link` header value, or undefined when there is no link (so no empty header is sent). */
  readonly linkHeader: string | undefined;
}

/** The form-decoded name of one `name=value` pair of a query string (WHATWG URL §5.1). */
function pairName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  // URLSearchParams applies the standard's exact decoding (`+` is a space, a bad `%` escape stays as is).
  for (const [name] of new URLSearchParams(`${raw}=`)) return name;
  return raw;
}

/** The cursor token, checked and percent-encoded for the query string; undefined when absent. */
function encodedToken(token: unknown, option: 'next' | 'prev'): string | undefined {
  if (token === undefined || token === null) return undefined;
  if (typeof token !== 'string')
    throw new TypeError(`buildPageLinks: ${option} must be a string, null or undefined`);
  // An empty cursor reads as "no cursor" (paginationQuery), so the link would lead back to page one.
  if (token === '') throw new TypeError(`buildPageLinks: ${option} must not be an empty string`);
  if (token.length > MAX_CURSOR_LENGTH) {
    // paginationQuery would refuse the link's cursor with a 422.
    throw new TypeError(`buildPageLinks: ${option} is longer than MAX_CURSOR_LENGTH (${MAX_CURSOR_LENGTH})`);
  }
  return encodeComponent(token, option);
}

/** Percent-encodes a query name or value; a lone surrogate (no UTF-8 form) is a TypeError. */
function encodeComponent(text: string, option: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw new TypeError(`buildPageLinks: ${option} contains a lone surrogate, which has no UTF-8 encoding`);
  }
}

/**
 * Builds `next`, `prev` and `first` links from the current request URL: the cursor parameter is
 * replaced (every occurrence; the new one goes where the first one was, else at the end), other query
 * parameters stay as they were, in order; the fragment and any user:password are dropped. Returns
 * `{ links, urls, linkHeader }`; `linkHeader` is undefined when there is no link.
 * @example const page = buildPageLinks({ url: ctx.request.url, next: hasMore ? encodeCursor({ after }) : null });
 */
export function buildPageLinks(options: PageLinksOptions): PageLinks {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('buildPageLinks: the options must be an object');
  }
  const { url, first, cursorParam = 'cursor' } = options;
  if (typeof cursorParam !== 'string' || cursorParam === '') {
    throw new TypeError('buildPageLinks: cursorParam must be a non-empty string');
  }
  if (first !== undefined && typeof first !== 'boolean')
    throw new TypeError('buildPageLinks: first must be a boolean');
  if (!(url instanceof URL) && typeof url !== 'string')
    throw new TypeError('buildPageLinks: url must be a string or a URL');
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new TypeError('buildPageLinks: url must be an absolute URL (pass ctx.request.url)');
  }
  const next = encodedToken(options.next, 'next');
  const prev = encodedToken(options.prev, 'prev');

  // The pairs as they were written (already percent-encoded by the URL parser), minus the cursor.
  const pairs: string[] = [];
  let cursorAt = -1;
  for (const pair of base.search.slice(1).split('&')) {
    if (pair === '') continue;
    if (pairName(pair) === cursorParam) {
      if (cursorAt < 0) cursorAt = pairs.length;
    } else {
      pairs.push(pair);
    }
  }
  if (cursorAt < 0) cursorAt = pairs.length;
  base.search = '';
  base.hash = '';
  // Credentials in a URL are deprecated (RFC 3986 §3.2.1) and must never be echoed into a response.
  base.username = '';
  base.password = '';
  const path = base.href;
  const cursorName = encodeComponent(cursorParam, 'cursorParam');
  const withCursor = (token: string | undefined): string => {
    const list =
      token === undefined
        ? pairs
        : [...pairs.slice(0, cursorAt), `${cursorName}=${token}`, ...pairs.slice(cursorAt)];
    return list.length === 0 ? path : `${path}?${list.join('&')}`;
  };

  const links: (LinkEntry & { url: string; rel: PageRel })[] = [];
  const urls: { next?: string; prev?: string; first?: string } = {};
  const add = (rel: PageRel, target: string): void => {
    links.push({ url: target, rel });
    urls[rel] = target;
  };
  if (next !== undefined) add('next', withCursor(next));
  if (prev !== undefined) add('prev', withCursor(prev));
  if (first === true) add('first', withCursor(undefined));
  return { links, urls, linkHeader: links.length === 0 ? undefined : buildLinkHeader(links) };
}

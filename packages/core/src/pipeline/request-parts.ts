import type { RawHeaders, RawQuery } from '../types/index.ts';

/** The path and query of a request URL, found without building a URL object. */
export function splitUrl(url: string): { pathname: string; search: string } {
  // Request URLs are absolute (scheme://authority/path?query#fragment); skip past the authority.
  const schemeEnd = url.indexOf('://');
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (pathStart < 0) return { pathname: '/', search: '' };
  // RFC 3986 §3.5: the fragment starts at the first `#`; a `?` after it is fragment text.
  const hash = url.indexOf('#', pathStart);
  const end = hash < 0 ? url.length : hash;
  const queryStart = url.indexOf('?', pathStart);
  if (queryStart < 0 || queryStart > end) return { pathname: url.slice(pathStart, end), search: '' };
  return { pathname: url.slice(pathStart, queryStart), search: url.slice(queryStart + 1, end) };
}

const hasOwn = Object.hasOwn;

/** Adds one name/value pair (query, form); a repeated name gives an array (`?tag=a&tag=b`). */
export function addPair<V>(out: Record<string, V | V[] | undefined>, key: string, value: V): void {
  // A `__proto__` key would reach the prototype through assignment; it is never a real parameter.
  if (key === '__proto__') return;
  if (!hasOwn(out, key)) {
    out[key] = value;
    return;
  }
  const previous = out[key];
  if (Array.isArray(previous)) previous.push(value);
  else out[key] = [previous as V, value];
}

/**
 * Parses a query string into a map, as the WHATWG URL standard's
 * application/x-www-form-urlencoded parser does (§5.1). Text with no escapes (`%`, `+`) is split
 * by hand, which is several times cheaper than building a URLSearchParams; escaped text goes
 * through URLSearchParams for its exact decoding rules.
 */
export function parseQuery(search: string): RawQuery {
  const out: RawQuery = {};
  if (search.length === 0) return out;
  if (search.includes('%') || search.includes('+')) {
    // URLSearchParams drops one leading `?`, which in a request target belongs to the first name.
    const init = search.startsWith('?') ? `&${search}` : search;
    for (const [key, value] of new URLSearchParams(init)) addPair(out, key, value);
    return out;
  }
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end < 0) end = search.length;
    // §5.1 step 3.1: empty sequences (`a=1&&b=2`) are skipped.
    if (end > start) {
      const eq = search.indexOf('=', start);
      if (eq < 0 || eq > end) addPair(out, search.slice(start, end), '');
      else addPair(out, search.slice(start, eq), search.slice(eq + 1, end));
    }
    start = end + 1;
  }
  return out;
}

/** Request headers as a plain map of lower-case names (repeated fields are already joined). */
export function headerMap(headers: Headers): RawHeaders {
  const out: RawHeaders = {};
  for (const [name, value] of headers) {
    if (name !== '__proto__') out[name] = value;
  }
  return out;
}

/** How many header fields a request carries (Bun exposes a native count). */
export function headerCount(headers: Headers): number {
  const native = (headers as { count?: unknown }).count;
  if (typeof native === 'number') return native;
  let n = 0;
  for (const _ of headers.keys()) n++;
  return n;
}

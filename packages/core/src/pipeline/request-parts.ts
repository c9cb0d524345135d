import { BadRequestError } from '../errors/index.ts';
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

/** The path of a request URL, cut as `splitUrl` cuts it (no query, no fragment), with one slice. */
export function pathnameOf(url: string): string {
  const schemeEnd = url.indexOf('://');
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (pathStart < 0) return '/';
  let end = url.indexOf('?', pathStart);
  const hash = url.indexOf('#', pathStart);
  if (end < 0 || (hash >= 0 && hash < end)) end = hash;
  return end < 0 ? url.slice(pathStart) : url.slice(pathStart, end);
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
 * Parses a query string into a map, splitting as the WHATWG URL standard's
 * application/x-www-form-urlencoded parser does (§5.1: `&` separates, the first `=` splits, `+` is
 * a space), but strictly: a `%` that does not start an escape, or escapes that are not UTF-8, are a
 * 400 naming the parameter (RFC 3986 §2.1, RFC 3629). The WHATWG parser would keep the first and turn
 * the second into U+FFFD, so a handler would see text the client never sent; paths and bodies are
 * refused for the same reasons. Pairs without escapes are split by hand, with no decoding at all.
 */
export function parseQuery(search: string): RawQuery {
  const out: RawQuery = {};
  if (search.length === 0) return out;
  const escaped = search.includes('%') || search.includes('+');
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end < 0) end = search.length;
    // §5.1 step 3.1: empty sequences (`a=1&&b=2`) are skipped.
    if (end > start) {
      const eq = search.indexOf('=', start);
      const hasValue = eq >= 0 && eq < end;
      const rawName = search.slice(start, hasValue ? eq : end);
      const rawValue = hasValue ? search.slice(eq + 1, end) : '';
      if (escaped) {
        const name = decodeFormComponent(rawName, undefined);
        addPair(out, name, decodeFormComponent(rawValue, name));
      } else {
        addPair(out, rawName, rawValue);
      }
    }
    start = end + 1;
  }
  return out;
}

/** Longest part of an undecodable name a problem quotes: enough to find it, never a flood. */
const QUOTED_NAME_MAX = 64;

/** One form-encoded name or value: `+` as space, then %-escapes as UTF-8; 400 when they are not. */
function decodeFormComponent(text: string, parameter: string | undefined): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    const what =
      parameter === undefined
        ? `The query parameter name ${JSON.stringify(text.slice(0, QUOTED_NAME_MAX))}`
        : `The value of query parameter ${JSON.stringify(parameter.slice(0, QUOTED_NAME_MAX))}`;
    throw new BadRequestError(`${what} is not valid percent-encoded UTF-8 (RFC 3986 §2.1)`);
  }
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

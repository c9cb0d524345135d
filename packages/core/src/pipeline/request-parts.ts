import type { RawHeaders, RawQuery } from '../types/index.ts';

/** Offsets of the path and query in a request URL, found without building a URL object. */
export function splitUrl(url: string): { pathname: string; search: string } {
  // Request URLs are absolute (scheme://authority/path?query); skip past the authority.
  const schemeEnd = url.indexOf('://');
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (pathStart < 0) return { pathname: '/', search: '' };
  const queryStart = url.indexOf('?', pathStart);
  if (queryStart < 0) {
    const hash = url.indexOf('#', pathStart);
    return { pathname: hash < 0 ? url.slice(pathStart) : url.slice(pathStart, hash), search: '' };
  }
  const hash = url.indexOf('#', queryStart);
  return {
    pathname: url.slice(pathStart, queryStart),
    search: hash < 0 ? url.slice(queryStart + 1) : url.slice(queryStart + 1, hash),
  };
}

const hasOwn = Object.hasOwn;

/** Parses a query string into a map; a repeated key gives an array (`?tag=a&tag=b`). */
export function parseQuery(search: string): RawQuery {
  const out: RawQuery = {};
  if (search.length === 0) return out;
  for (const [key, value] of new URLSearchParams(search)) {
    // A `__proto__` key would reach the prototype through assignment; it is never a real parameter.
    if (key === '__proto__') continue;
    if (!hasOwn(out, key)) {
      out[key] = value;
      continue;
    }
    const previous = out[key];
    if (Array.isArray(previous)) previous.push(value);
    else out[key] = [previous as string, value];
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

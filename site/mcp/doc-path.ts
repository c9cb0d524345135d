/**
 * What `get_doc` accepts as a page address, reduced to a page path (`docs/jwt`): the path itself,
 * the canonical URL path (`/docs/jwt`), the Markdown URL (`/docs/jwt.md`), the `/md/` mirror
 * (`/md/docs/jwt`), the deprecated `/docs-md/` mirror, or any of those as an absolute URL on the
 * site's origin. And, for an address that names no page, the closest page paths by edit distance.
 */

import { editDistance } from '../content/edit-distance.ts';
import { SLACK } from '../content/path-suggestions.ts';

/** Longest address examined, in UTF-16 code units (the tool's schema allows no more). */
export const MAX_DOC_ADDRESS_LENGTH = 2048;

/** How many close paths an unknown-page error names. */
export const SUGGESTION_COUNT = 3;

/** A page path, or why the address cannot name one. */
export type DocAddress =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: 'other-origin' | 'invalid'; readonly message: string };

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function stripQueryAndFragment(text: string): string {
  let end = text.length;
  for (const mark of ['?', '#']) {
    const at = text.indexOf(mark);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '/') start++;
  while (end > start && text[end - 1] === '/') end--;
  return text.slice(start, end);
}

/**
 * The page path an address names (which may still be a path no page has). `origin` is the site's
 * origin (`https://charter.dev`); an absolute URL on another origin is refused, since this server
 * only holds its own pages.
 */
export function resolveDocAddress(address: string, origin: string): DocAddress {
  let text = address.trim();
  if (text.length === 0 || text.length > MAX_DOC_ADDRESS_LENGTH) {
    return { ok: false, reason: 'invalid', message: 'A page address is 1 to 2048 characters long' };
  }
  if (SCHEME.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: 'invalid', message: 'The address is not a valid URL' };
    }
    if (url.origin !== origin) {
      return {
        ok: false,
        reason: 'other-origin',
        message: `Only pages of ${origin} can be read here; give a path such as "docs/jwt"`,
      };
    }
    text = url.pathname;
  } else {
    text = stripQueryAndFragment(text);
  }
  try {
    text = decodeURIComponent(text);
  } catch {
    // A stray "%" is taken literally: such a path matches no page, and the error says so.
  }
  let path = trimSlashes(text);
  if (path === 'md' || path.startsWith('md/')) path = path.slice(3);
  else if (path.startsWith('docs-md/')) path = `docs/${path.slice('docs-md/'.length)}`;
  if (path.endsWith('.md')) path = path.slice(0, -3);
  path = trimSlashes(path);
  return { ok: true, path: path === '' ? 'index' : path };
}

function lastSegment(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * The page paths closest to `requested`: by the smaller of the edit distance between the paths and
 * between their last segments (so `jwt-token` finds `docs/jwt`), then by path. Only the first
 * characters of `requested` are compared, as many as the longest path has plus `SLACK`: past that
 * every path is just as far, and each extra character would cost a row per path (issue 17).
 */
export function closestPaths(
  requested: string,
  paths: readonly string[],
  count = SUGGESTION_COUNT,
): string[] {
  const longest = paths.reduce((max, path) => Math.max(max, path.length), 0);
  const wanted = requested.slice(0, Math.min(200, longest + SLACK)).toLowerCase();
  const wantedLast = lastSegment(wanted);
  return paths
    .map((path) => ({
      path,
      distance: Math.min(editDistance(wanted, path), editDistance(wantedLast, lastSegment(path))),
    }))
    .sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, count)
    .map((entry) => entry.path);
}

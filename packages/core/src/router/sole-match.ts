/**
 * Matching one parameter route without the trie, for an adapter whose runtime already picked the
 * route (Bun's native `routes` table). The answer must be the one `Router.find` would give, so a
 * match is claimed only when it is provably the router's:
 *
 * - the pathname is canonical (`scanPathname` finds nothing to normalise: no `%`, no `//`, no `.` or
 *   `..` segment, nothing `new URL()` would escape), so the router searches it as it is and takes
 *   each parameter as the raw text between two `/`;
 * - the pathname matches the pattern segment for segment (static text equal, each parameter one
 *   non-empty segment, no trailing slash), checked here whatever the runtime matched;
 * - no other registered pattern could match any path this one matches (`patternsOverlap`), so the
 *   router's precedence (static before parameter before wildcard, with backtracking) has nothing to
 *   choose between: the pattern that matches is the one it returns.
 *
 * Anything else (a `%`-escape, `//`, a dot segment, a trailing slash, a sibling such as `/users/me`
 * beside `/users/:id`) is left to the router.
 */
import type { RouteSegment } from './path.ts';
import { scanPathname } from './path.ts';

/**
 * True when some request path matches both patterns. Without wildcards: the same number of segments,
 * and no position where both are static with different text (a parameter takes any one segment).
 * A wildcard takes one or more segments, so only the positions before it have to agree.
 */
export function patternsOverlap(a: readonly RouteSegment[], b: readonly RouteSegment[]): boolean {
  const aWild = a.length > 0 && a[a.length - 1]!.kind === 'wildcard';
  const bWild = b.length > 0 && b[b.length - 1]!.kind === 'wildcard';
  const aFixed = aWild ? a.length - 1 : a.length;
  const bFixed = bWild ? b.length - 1 : b.length;
  if (!aWild && !bWild && aFixed !== bFixed) return false;
  // A wildcard needs at least one segment after the other pattern's fixed ones run out.
  if (aWild && !bWild && bFixed < aFixed + 1) return false;
  if (bWild && !aWild && aFixed < bFixed + 1) return false;
  const shared = Math.min(aFixed, bFixed);
  for (let i = 0; i < shared; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind === 'static' && y.kind === 'static' && x.text !== y.text) return false;
  }
  return true;
}

/**
 * The params of `pathname` for a pattern without wildcards, or undefined when the pathname is not
 * canonical or does not match segment for segment (the router must decide then).
 */
export function matchCanonical(
  segments: readonly RouteSegment[],
  names: readonly string[],
  pathname: string,
): Record<string, string> | undefined {
  if (scanPathname(pathname) !== 0) return undefined;
  const n = pathname.length;
  const params: Record<string, string> = {};
  let name = 0;
  // pathname[pos] is the '/' opening the next segment.
  let pos = 0;
  for (const segment of segments) {
    if (pos >= n) return undefined;
    const start = pos + 1;
    if (segment.kind === 'static') {
      const end = start + segment.text.length;
      if (!pathname.startsWith(segment.text, start) || (end < n && pathname.charCodeAt(end) !== 47)) {
        return undefined;
      }
      pos = end;
      continue;
    }
    if (segment.kind !== 'param') return undefined;
    let end = pathname.indexOf('/', start);
    if (end < 0) end = n;
    // A parameter takes text; an empty segment is `//` or a trailing slash, both misses for the router.
    if (end === start) return undefined;
    params[names[name++]!] = pathname.slice(start, end);
    pos = end;
  }
  return pos === n ? params : undefined;
}

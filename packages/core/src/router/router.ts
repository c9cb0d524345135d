/**
 * The request router: a Map for fully static paths (O(1), allocation-free hits)
 * in front of a segment trie with backtracking for parameters and wildcards.
 */
import type { RouteSegment } from './path.ts';
import { normalizePathname, parseRoutePath, RouteDefinitionError, scanPathname } from './path.ts';
import { matchCanonical, patternsOverlap } from './sole-match.ts';

export { RouteDefinitionError } from './path.ts';

export type RouteLookup<T> =
  | { kind: 'found'; value: T; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: readonly string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path'; reason: string };

export interface RouteInfo<T> {
  readonly method: string;
  /** The canonical pattern (static segments percent-encoded as requests carry them). */
  readonly path: string;
  readonly value: T;
  readonly isStatic: boolean;
}

type Found<T> = Extract<RouteLookup<T>, { kind: 'found' }>;
type NotAllowed = Extract<RouteLookup<unknown>, { kind: 'method-not-allowed' }>;

/** Shared by every static hit; frozen so one caller cannot leak params into another's request. */
const EMPTY_PARAMS: Record<string, string> = Object.freeze({});
const NOT_FOUND: RouteLookup<never> = Object.freeze({ kind: 'not-found' });

/** RFC 9110 §5.6.2 token, upper-case only: methods are case-sensitive (§9.1), so `get` would never match. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Z-]+$/;

/** Everything registered for one path shape (all methods share the parameter names). */
class Endpoint<T> {
  readonly handlers = new Map<string, T>();
  /** Pre-built, frozen results for static routes, so a static hit allocates nothing. */
  readonly hits = new Map<string, Found<T>>();
  notAllowed: NotAllowed = Object.freeze({ kind: 'method-not-allowed', allowed: Object.freeze([]) });

  constructor(
    readonly pattern: string,
    readonly names: readonly string[],
  ) {}

  get allowed(): readonly string[] {
    return this.notAllowed.allowed;
  }
}

class Node<T> {
  /**
   * Static children keyed by segmentHash() of their label. Keying by an int
   * lets a lookup hash the segment in place: slicing the pathname and hashing
   * the substring costs several times more in JSC.
   */
  statics: Map<number, Node<T>> | null = null;
  /** Next sibling whose label has the same hash (collisions are rare but legal). */
  collision: Node<T> | null = null;
  param: Node<T> | null = null;
  /** A wildcard child is always a leaf: the wildcard is the last segment. */
  wildcard: Node<T> | null = null;
  endpoint: Endpoint<T> | null = null;

  constructor(readonly label = '') {}
}

export class Router<T> {
  readonly #root = new Node<T>();
  readonly #static = new Map<string, Endpoint<T>>();
  readonly #routes: RouteInfo<T>[] = [];
  /** The segments of every distinct pattern, for `soleMatcher`'s overlap check. */
  readonly #shapes = new Map<string, readonly RouteSegment[]>();
  #routesView: readonly RouteInfo<T>[] | null = null;

  // Scratch state for one find() call; find() is synchronous and never re-entered.
  #caps: number[] = [];
  #firstMiss: Endpoint<T> | null = null;
  #moreMisses: string[] | null = null;

  /** Registers a handler value; throws RouteDefinitionError on an invalid path or a conflict. */
  add(method: string, path: string, value: T): void {
    if (typeof method !== 'string' || !METHOD.test(method)) {
      throw new RouteDefinitionError(
        `Invalid method ${JSON.stringify(method)} for route ${JSON.stringify(path)}: ` +
          'expected an upper-case HTTP method token such as "GET"',
      );
    }
    const route = parseRoutePath(path);
    let node = this.#root;
    for (const seg of route.segments) node = child(node, seg);
    let ep = node.endpoint;
    if (ep === null) {
      ep = new Endpoint<T>(route.pattern, route.names);
      node.endpoint = ep;
      this.#shapes.set(route.pattern, route.segments);
      if (route.isStatic) this.#static.set(route.pattern, ep);
    } else if (ep.handlers.has(method)) {
      throw new RouteDefinitionError(
        `Route conflict: ${method} ${JSON.stringify(path)} has the same shape as the already registered ` +
          `${method} ${JSON.stringify(ep.pattern)}`,
      );
    } else if (!sameNames(ep.names, route.names)) {
      throw new RouteDefinitionError(
        `Route conflict: ${method} ${JSON.stringify(path)} has the same shape as ${JSON.stringify(ep.pattern)} ` +
          `(${ep.allowed.join(', ')}) but different parameter/wildcard names; use the same names for every ` +
          'method so the params object does not depend on the method',
      );
    }
    ep.handlers.set(method, value);
    if (route.isStatic) ep.hits.set(method, Object.freeze({ kind: 'found', value, params: EMPTY_PARAMS }));
    const allowed = Object.freeze([...ep.handlers.keys()].sort());
    ep.notAllowed = Object.freeze({ kind: 'method-not-allowed', allowed });
    this.#routes.push(Object.freeze({ method, path: route.pattern, value, isStatic: route.isStatic }));
    this.#routesView = null;
  }

  /** Looks up an already-parsed URL pathname (as in `new URL(req.url).pathname`, still percent-encoded). */
  find(method: string, pathname: string): RouteLookup<T> {
    // Registered static paths are canonical and valid, so an exact hit needs no scan at all.
    const hit = this.#static.get(pathname);
    if (hit !== undefined) {
      const found = hit.hits.get(method);
      if (found !== undefined) return found;
      return this.#search(method, pathname, pathname.includes('%'));
    }
    const scan = scanPathname(pathname);
    if (scan === 0) return this.#search(method, pathname, false);
    if (scan !== 1) return scan;
    const path = normalizePathname(pathname);
    if (typeof path !== 'string') return path;
    const normalHit = this.#static.get(path)?.hits.get(method);
    return normalHit ?? this.#search(method, path, true);
  }

  /** Every registered route, in registration order. */
  routes(): ReadonlyArray<RouteInfo<T>> {
    this.#routesView ??= Object.freeze(this.#routes.slice());
    return this.#routesView;
  }

  /**
   * For an adapter whose runtime matched a parameter route itself (Bun's `routes` table): the params
   * of a pathname when the router would give exactly this route and these params, else undefined
   * (see sole-match.ts). Undefined for a static or wildcard pattern, or one another pattern overlaps.
   * The overlap is looked at again whenever a pattern was added since, so a later sibling
   * (`/users/me` beside `/users/:id`) sends the route's requests back to the router.
   */
  soleMatcher(path: string): ((pathname: string) => Record<string, string> | undefined) | undefined {
    const route = parseRoutePath(path);
    if (route.isStatic || route.segments.some((s) => s.kind === 'wildcard')) return undefined;
    const { segments, names, pattern } = route;
    const shapes = this.#shapes;
    if (!shapes.has(pattern)) return undefined;
    const alone = (): boolean => {
      for (const [other, otherSegments] of shapes) {
        if (other !== pattern && patternsOverlap(segments, otherSegments)) return false;
      }
      return true;
    };
    // Routes are only ever added: a pattern that overlaps another now always will.
    if (!alone()) return undefined;
    let checkedAt = shapes.size;
    let stillAlone = true;
    return (pathname) => {
      if (checkedAt !== shapes.size) {
        checkedAt = shapes.size;
        stillAlone &&= alone();
      }
      return stillAlone ? matchCanonical(segments, names, pathname) : undefined;
    };
  }

  /** Whether `method` is registered for this pattern (names must match too; static text is normalised). */
  has(method: string, path: string): boolean {
    let segments: readonly RouteSegment[];
    let names: readonly string[];
    try {
      ({ segments, names } = parseRoutePath(path));
    } catch {
      return false;
    }
    let node: Node<T> | null | undefined = this.#root;
    for (const seg of segments) {
      if (seg.kind === 'static')
        node = staticChild(node, seg.text, 0, seg.text.length, segmentHash(seg.text));
      else node = seg.kind === 'param' ? node.param : node.wildcard;
      if (node == null) return false;
    }
    const ep = node.endpoint;
    return ep !== null && ep.handlers.has(method) && sameNames(ep.names, names);
  }

  /** Trie search; `encoded` says whether param values may hold escapes to decode. */
  #search(method: string, path: string, encoded: boolean): RouteLookup<T> {
    this.#caps.length = 0;
    this.#firstMiss = null;
    this.#moreMisses = null;
    // `start` indexes the next segment; length + 1 means "all consumed", so "/" has zero segments.
    const ep = this.#match(this.#root, path, path.length === 1 ? 2 : 1, method);
    if (ep !== null) {
      const params: Record<string, string> = {};
      const caps = this.#caps;
      const names = ep.names;
      for (let i = 0; i < names.length; i++) {
        const raw = path.slice(caps[2 * i]!, caps[2 * i + 1]!);
        // Already validated as well-formed UTF-8 by normalizePathname(), so this cannot throw.
        params[names[i]!] = encoded && raw.includes('%') ? decodeURIComponent(raw) : raw;
      }
      return { kind: 'found', value: ep.handlers.get(method) as T, params };
    }
    // Casts: TS cannot see that #match() reassigned these after the resets above.
    const first = this.#firstMiss as Endpoint<T> | null;
    if (first === null) return NOT_FOUND;
    const more = this.#moreMisses as string[] | null;
    if (more === null) return first.notAllowed;
    for (const m of first.allowed) if (!more.includes(m)) more.push(m);
    // A fresh array nobody else holds: no need to pay for freezing it.
    return { kind: 'method-not-allowed', allowed: more.sort() };
  }

  /**
   * Depth-first, static before param before wildcard, backtracking on failure.
   * A node's depth fixes its segment index, so each node is visited at most once
   * per lookup: the cost is bounded by the trie size, never exponential.
   * A pattern that matches the path but not the method does not stop the search
   * (another pattern may take that method); its methods are recorded so a 405
   * lists the union over every pattern matching the pathname, which is exactly
   * the set of methods that would succeed (RFC 9110 §10.2.1 `Allow`).
   */
  #match(node: Node<T>, path: string, start: number, method: string): Endpoint<T> | null {
    const n = path.length;
    if (start > n) {
      const ep = node.endpoint;
      if (ep === null) return null;
      if (ep.handlers.has(method)) return ep;
      this.#miss(ep);
      return null;
    }
    // Find the segment end and hash it in one pass. Never read past the end:
    // an out-of-bounds charCodeAt() knocks JSC off its fast path.
    let end = start;
    let hash = 0;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === 47) break;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    const next = staticChild(node, path, start, end, hash);
    if (next !== null) {
      const ep = this.#match(next, path, end + 1, method);
      if (ep !== null) return ep;
    }
    if (end === start) return null; // empty (trailing) segment: params and wildcards need text
    const caps = this.#caps;
    if (node.param !== null) {
      const depth = caps.length;
      caps.push(start, end);
      const ep = this.#match(node.param, path, end + 1, method);
      if (ep !== null) return ep;
      caps.length = depth;
    }
    // A wildcard takes one or more segments; a trailing slash stays a miss, as for other routes.
    const ep = node.wildcard?.endpoint;
    if (ep != null && path.charCodeAt(n - 1) !== 47) {
      if (ep.handlers.has(method)) {
        caps.push(start, n);
        return ep;
      }
      this.#miss(ep);
    }
    return null;
  }

  #miss(ep: Endpoint<T>): void {
    if (this.#firstMiss === null) this.#firstMiss = ep;
    else if (this.#firstMiss !== ep) {
      const more = (this.#moreMisses ??= []);
      for (const m of ep.allowed) if (!more.includes(m)) more.push(m);
    }
  }
}

function child<T>(node: Node<T>, seg: RouteSegment): Node<T> {
  if (seg.kind === 'param') return (node.param ??= new Node<T>());
  if (seg.kind === 'wildcard') return (node.wildcard ??= new Node<T>());
  const label = seg.text;
  const hash = segmentHash(label);
  const found = staticChild(node, label, 0, label.length, hash);
  if (found !== null) return found;
  const next = new Node<T>(label);
  node.statics ??= new Map();
  next.collision = node.statics.get(hash) ?? null;
  node.statics.set(hash, next);
  return next;
}

/** Hash of a static label; must agree with the in-place hashing in #match(). */
function segmentHash(label: string): number {
  let hash = 0;
  for (let i = 0; i < label.length; i++) hash = (Math.imul(hash, 31) + label.charCodeAt(i)) | 0;
  return hash;
}

/** The static child labelled `s[start, end)`, compared in place. */
function staticChild<T>(node: Node<T>, s: string, start: number, end: number, hash: number): Node<T> | null {
  let next = node.statics?.get(hash) ?? null;
  while (next !== null && (next.label.length !== end - start || !s.startsWith(next.label, start))) {
    next = next.collision;
  }
  return next;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Fills a route path's `:name` and `*name` segments. RFC 3986 §3.3: each value becomes whole
 * segments, percent-encoded, so a value can never add, remove or climb segments; values the
 * router would refuse (§5.2.4 dot segments, empty segments) fail here, before any request.
 */

/** Why a value cannot be one path segment, or undefined when it can. */
function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'is empty';
  // RFC 3986 §5.2.4: `.` and `..` are removed or climb a level when the URL is resolved.
  if (segment === '.' || segment === '..') return `is the dot segment "${segment}"`;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    // The Charter router answers 400 to controls and to `\` (raw or encoded) in a path.
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'contains a control character';
    if (c === 92) return 'contains a backslash';
  }
  return undefined;
}

function fail(operationId: string, name: string, problem: string): never {
  throw new TypeError(`${operationId}: path parameter "${name}" ${problem}`);
}

/** The text of one parameter value; only scalars make sense in a path. */
function valueText(operationId: string, name: string, value: unknown): string {
  if (value === undefined || value === null) fail(operationId, name, 'is missing');
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(operationId, name, `is ${value}, not a finite number`);
    return String(value);
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return fail(operationId, name, `must be a string or a number, got ${typeof value}`);
}

function encodeSegment(operationId: string, name: string, segment: string, wildcard: boolean): string {
  const problem = segmentProblem(segment);
  if (problem !== undefined) fail(operationId, name, wildcard ? `has a segment that ${problem}` : problem);
  try {
    return encodeURIComponent(segment);
  } catch {
    // A lone UTF-16 surrogate has no UTF-8 form (RFC 3629 §3).
    return fail(operationId, name, 'contains an unpaired UTF-16 surrogate');
  }
}

/**
 * The path of a request to `routePath` with `params` filled in. `:name` takes one segment (a `/`
 * in the value is refused: the router refuses `%2F`); `*name` takes `/`-separated segments, each
 * checked and encoded. Throws a TypeError naming the operation and the parameter.
 */
export function fillPath(operationId: string, routePath: string, params: unknown): string {
  if (!routePath.includes(':') && !routePath.includes('*')) return routePath;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw new TypeError(`${operationId}: params must be an object of path parameter values`);
  }
  const values = (params ?? {}) as Record<string, unknown>;
  const segments = routePath.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    const sigil = segment[0];
    if (sigil !== ':' && sigil !== '*') continue;
    const name = segment.slice(1);
    // Own properties only: `:constructor` must not find Object.prototype.constructor.
    const text = valueText(operationId, name, Object.hasOwn(values, name) ? values[name] : undefined);
    if (sigil === ':') {
      if (text.includes('/')) {
        fail(operationId, name, 'contains "/": a parameter is one path segment (declare a *wildcard)');
      }
      segments[i] = encodeSegment(operationId, name, text, false);
    } else {
      if (text === '') fail(operationId, name, 'is empty');
      segments[i] = text
        .split('/')
        .map((part) => encodeSegment(operationId, name, part, true))
        .join('/');
    }
  }
  return segments.join('/');
}

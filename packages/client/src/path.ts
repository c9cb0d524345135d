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

/** A `:name` (one segment) or `*name` (the rest of the path) slot of a route path. */
export interface PathSlot {
  readonly name: string;
  readonly wildcard: boolean;
}

/** A route path split once, at client creation: literal text and the parameter slots between it. */
export type PathTemplate = readonly (string | PathSlot)[];

/** Splits a route path into its literal text and its `:name`/`*name` slots, in order. */
export function compilePath(routePath: string): PathTemplate {
  const template: (string | PathSlot)[] = [];
  let literal = '';
  const segments = routePath.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (i > 0) literal += '/';
    const sigil = segment[0];
    if (i === 0 || (sigil !== ':' && sigil !== '*')) {
      literal += segment;
      continue;
    }
    template.push(literal);
    literal = '';
    template.push(Object.freeze({ name: segment.slice(1), wildcard: sigil === '*' }));
  }
  if (literal !== '' || template.length === 0) template.push(literal);
  return Object.freeze(template);
}

/** The `:name` and `*name` parameters of a route path, in order. */
export function pathParamNames(routePath: string): string[] {
  const names: string[] = [];
  for (const part of compilePath(routePath)) if (typeof part !== 'string') names.push(part.name);
  return names;
}

/**
 * The path of a request to a compiled route path with `params` filled in. `:name` takes one
 * segment (a `/` in the value is refused: the router refuses `%2F`); `*name` takes `/`-separated
 * segments, each checked and encoded. Throws a TypeError naming the operation and the parameter.
 */
export function fillTemplate(operationId: string, template: PathTemplate, params: unknown): string {
  if (template.length === 1) return template[0] as string;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw new TypeError(`${operationId}: params must be an object of path parameter values`);
  }
  const values = (params ?? {}) as Record<string, unknown>;
  let path = '';
  for (const part of template) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const { name } = part;
    // Own properties only: `:constructor` must not find Object.prototype.constructor.
    const text = valueText(operationId, name, Object.hasOwn(values, name) ? values[name] : undefined);
    if (!part.wildcard) {
      if (text.includes('/')) {
        fail(operationId, name, 'contains "/": a parameter is one path segment (declare a *wildcard)');
      }
      path += encodeSegment(operationId, name, text, false);
    } else {
      if (text === '') fail(operationId, name, 'is empty');
      path += text
        .split('/')
        .map((segment) => encodeSegment(operationId, name, segment, true))
        .join('/');
    }
  }
  return path;
}

/** `fillTemplate` of a route path not compiled beforehand. */
export function fillPath(operationId: string, routePath: string, params: unknown): string {
  return fillTemplate(operationId, compilePath(routePath), params);
}

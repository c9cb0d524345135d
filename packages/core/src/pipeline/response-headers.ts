/**
 * Setting headers on a Response that may not be ours to mutate. A Response from `fetch()`,
 * `Response.redirect()` or `Response.error()` has an immutable header list (Fetch §5.4, guard
 * "immutable"): setting a header throws a TypeError. The helpers here copy such a response once,
 * `new Response(body, response)` (same status, status text, headers and body stream), and set the
 * headers on the copy. Callers must use the Response they get back.
 */

/** Header entries as a list of pairs, a record, or a Headers object. */
export type HeaderEntries = Iterable<readonly [string, string]> | Record<string, string> | Headers;

/** Options of `setResponseHeaders`. */
export interface SetResponseHeadersOptions {
  /** Replace a header the response already carries; default true. `Set-Cookie` is always appended. */
  overwrite?: boolean;
}

function entriesOf(entries: HeaderEntries): Iterable<readonly [string, string]> {
  if (entries instanceof Headers) return entries;
  if (Symbol.iterator in entries) return entries as Iterable<readonly [string, string]>;
  return Object.entries(entries);
}

/** True when the response's headers can be changed in place. */
function isMutable(response: Response): boolean {
  try {
    // A no-op write: deleting a header that is not there changes nothing but still hits the guard.
    response.headers.delete('x-charter-mutability-probe');
    return true;
  } catch {
    return false;
  }
}

/**
 * A response whose headers can be set: the response itself, or a copy when its headers are
 * immutable. A `Response.error()` (status 0) cannot be copied and is returned as it is.
 */
export function mutableResponse(response: Response): Response {
  if (isMutable(response)) return response;
  try {
    return new Response(response.body, response);
  } catch {
    return response;
  }
}

/**
 * Sets headers on a response and returns the Response to use from then on (the same one, or a
 * copy when its headers were immutable). With `overwrite: false`, a header the response already
 * has keeps its value. `Set-Cookie` entries are appended, never merged (RFC 9110 §5.3 exempts
 * Set-Cookie from list combination, RFC 6265 §3).
 */
export function setResponseHeaders(
  response: Response,
  entries: HeaderEntries,
  options: SetResponseHeadersOptions = {},
): Response {
  const overwrite = options.overwrite ?? true;
  let target: Response | undefined;
  for (const [name, value] of entriesOf(entries)) {
    const lower = name.toLowerCase();
    const current = target ?? response;
    if (lower !== 'set-cookie' && !overwrite && current.headers.has(lower)) continue;
    target ??= mutableResponse(response);
    if (lower === 'set-cookie') target.headers.append(lower, value);
    else target.headers.set(lower, value);
  }
  return target ?? response;
}

/** Splits a comma-separated field value (RFC 9110 §5.6.1) into trimmed, non-empty members. */
export function splitList(value: string | null): string[] {
  if (value === null) return [];
  const out: string[] = [];
  for (const part of value.split(',')) {
    const member = part.trim();
    if (member !== '') out.push(member);
  }
  return out;
}

/**
 * Merges field names into a Vary value (RFC 9110 §12.5.5): names compare case-insensitively, a
 * name already present is not repeated, and `*` absorbs everything (the response varies on
 * aspects beyond any header, so listing more adds nothing).
 */
export function mergeVary(current: string | null, fields: string | readonly string[]): string {
  const members = splitList(current);
  const seen = new Set(members.map((m) => m.toLowerCase()));
  if (seen.has('*')) return '*';
  for (const field of typeof fields === 'string' ? splitList(fields) : fields) {
    const lower = field.trim().toLowerCase();
    if (lower === '') continue;
    if (lower === '*') return '*';
    if (seen.has(lower)) continue;
    seen.add(lower);
    members.push(field.trim());
  }
  return members.join(', ');
}

/** Adds field names to the response's Vary header without duplicates; returns the Response to use. */
export function appendVary(response: Response, fields: string | readonly string[]): Response {
  const current = response.headers.get('vary');
  const merged = mergeVary(current, fields);
  if (merged === current || merged === '') return response;
  return setResponseHeaders(response, [['vary', merged]]);
}

/**
 * True for a field value safe to send: visible ASCII, spaces and tabs only, with no leading or
 * trailing whitespace (RFC 9110 §5.5). CR, LF and NUL would split or truncate the header block
 * (response splitting); other control characters and non-ASCII are refused as well.
 */
export function isFieldValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const visible = code >= 0x21 && code <= 0x7e;
    const space = code === 0x20 || code === 0x09;
    if (!visible && !space) return false;
    if (space && (i === 0 || i === value.length - 1)) return false;
  }
  return true;
}

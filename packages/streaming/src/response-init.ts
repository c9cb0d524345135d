// The status and headers of a streamed response (`sseResponse`, `ndjsonResponse`), checked up front so a
// mistake is a TypeError at the call, not a broken stream later.

// RFC 9110 §15.3.5, §15.3.6, §15.4.5: these statuses carry no content, so they cannot carry a stream.
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** The status, or a RangeError: an integer from 200 to 599 that may carry content. */
export function resolveStreamStatus(value: unknown, where: string): number {
  if (value === undefined) return 200;
  if (typeof value !== 'number') throw new TypeError(`${where}: status must be a number`);
  if (!Number.isInteger(value) || value < 200 || value > 599 || NULL_BODY_STATUSES.has(value)) {
    throw new RangeError(
      `${where}: status must be an integer from 200 to 599 that carries content (not 204, 205 or 304), ` +
        `got ${String(value)}`,
    );
  }
  return value;
}

/**
 * The response headers: `defaults` first, then the caller's `headers`, which win (a `cache-control`
 * of your own replaces the default). A `content-length` is refused: a stream's length is unknown, and
 * a wrong one would cut the stream short or make the client wait for bytes that never come
 * (RFC 9112 §6.3); without it the response is framed by chunked coding or the connection's end.
 */
export function streamHeaders(
  defaults: Readonly<Record<string, string>>,
  headers: HeadersInit | undefined,
  where: string,
): Headers {
  const out = new Headers(defaults);
  if (headers === undefined) return out;
  let given: Headers;
  try {
    given = new Headers(headers);
  } catch (error) {
    throw new TypeError(`${where}: headers must be a valid HeadersInit (${(error as Error).message})`);
  }
  for (const [name, value] of given) {
    if (name === 'content-length') {
      throw new TypeError(
        `${where}: headers must not set content-length: a stream has no length known up front`,
      );
    }
    if (name === 'set-cookie') out.append(name, value);
    else out.set(name, value);
  }
  return out;
}

// The status and headers of a streamed response (`sseResponse`, `ndjsonResponse`), checked up front so a
// mistake is a TypeError at the call, not a broken stream later.
import type { HeadersInit } from '@charter/core';

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

// Framing and coding are the server's: the body is neither compressed nor chunk-coded by us, so a
// content-encoding would make clients decode plain text, and transfer-encoding is hop-by-hop
// (RFC 9112 §6.1), set by the server from how it sends the body.
const REFUSED: Readonly<Record<string, string>> = Object.freeze({
  'content-length': 'a stream has no length known up front',
  'content-encoding': 'the stream is not encoded (use the compression() hook to compress responses)',
  'transfer-encoding': 'the server chooses the framing of a streamed body (RFC 9112 §6.1)',
});

/** The media type of a content-type value, lower case, without parameters (RFC 9110 §8.3.1). */
function essence(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The response headers: `defaults` first, then the caller's `headers`, which win (a `cache-control`
 * of your own replaces the default). Refused with a TypeError: `content-length` (a wrong one would cut
 * the stream short or make the client wait for bytes that never come, RFC 9112 §6.3; without it the
 * response is framed by chunked coding or the connection's end), `content-encoding`,
 * `transfer-encoding`, and a `content-type` whose media type is not one of `mediaTypes` (its
 * parameters may differ): the body is in that format whatever the header says.
 */
export function streamHeaders(
  defaults: Readonly<Record<string, string>>,
  headers: HeadersInit | undefined,
  where: string,
  mediaTypes: readonly string[],
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
    const refused = REFUSED[name];
    if (refused !== undefined) throw new TypeError(`${where}: headers must not set ${name}: ${refused}`);
    if (name === 'content-type' && !mediaTypes.includes(essence(value))) {
      throw new TypeError(
        `${where}: headers set content-type to "${value}", but the body is ${mediaTypes.join(' (or ')}` +
          `${mediaTypes.length > 1 ? ')' : ''}`,
      );
    }
    if (name === 'set-cookie') out.append(name, value);
    else out.set(name, value);
  }
  return out;
}

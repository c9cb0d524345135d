/** Request header fields of the client: the options' fields, then the call's (RFC 9110 §5). */

/** Adds header fields to `out`, replacing fields of the same name; every value must be a string. */
export function applyHeaders(out: Headers, headers: unknown, where: string): void {
  if (headers === undefined) return;
  if (headers instanceof Headers) {
    for (const [name, value] of headers) out.set(name, value);
    return;
  }
  const entries: Array<[string, unknown]> = Array.isArray(headers)
    ? headers.map((pair) => {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
          throw new TypeError(`${where}: a header entry must be a [name, value] pair`);
        }
        return [pair[0], pair[1]];
      })
    : typeof headers === 'object' && headers !== null
      ? Object.entries(headers)
      : [];
  if (entries.length === 0 && (typeof headers !== 'object' || headers === null)) {
    throw new TypeError(`${where}: headers must be an object of field values`);
  }
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      throw new TypeError(
        `${where}: header "${name}" must be a string, got ${value === null ? 'null' : typeof value}`,
      );
    }
    try {
      out.set(name, value);
    } catch (error) {
      // Headers refuses names that are not tokens and values with CR, LF or NUL (RFC 9110 §5.5).
      throw new TypeError(`${where}: header "${name}" is not a valid field: ${(error as Error).message}`);
    }
  }
}

/**
 * Serialises a query object as `application/x-www-form-urlencoded` (WHATWG URL §5.2), the form
 * the router's query parser reads back: arrays repeat the key, `undefined` leaves it out.
 */

function fail(operationId: string, key: string, problem: string): never {
  throw new TypeError(`${operationId}: query parameter "${key}" ${problem}`);
}

function scalarText(operationId: string, key: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      // The server converts only finite decimal numbers back: `NaN` would arrive as the text "NaN".
      if (!Number.isFinite(value)) fail(operationId, key, `is ${value}, not a finite number`);
      return String(value);
    case 'boolean':
      return String(value);
    default:
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) fail(operationId, key, 'is an invalid Date');
        return value.toISOString();
      }
      return fail(
        operationId,
        key,
        `must be a string, number, boolean, Date or an array of them, got ${value === null ? 'null' : typeof value}`,
      );
  }
}

/** The query string (without `?`) of a query object; empty when there is nothing to send. */
export function buildQuery(operationId: string, query: unknown): string {
  if (query === undefined) return '';
  if (typeof query !== 'object' || query === null || Array.isArray(query) || query instanceof Date) {
    throw new TypeError(`${operationId}: query must be an object of parameter values`);
  }
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item === undefined) continue;
        if (Array.isArray(item)) fail(operationId, key, 'holds a nested array');
        search.append(key, scalarText(operationId, key, item));
      }
    } else {
      search.append(key, scalarText(operationId, key, value));
    }
  }
  return search.toString();
}

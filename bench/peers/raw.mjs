/**
 * What the raw servers (`bun-raw.ts`, `bun-routes.ts`, `node-raw.mjs`) check by hand, as a careful person
 * writing a bare handler would: the id is an integer, the echoed body has the right shape. No schema
 * library, no response validation, no headers beyond what the runtime writes.
 */

/** The body of `GET /static`. */
export const STATIC_BODY = { message: 'Hello, World!' };

/** The id of `GET /users/:id` as an integer, or undefined when the text is not one. */
export function parseId(text) {
  if (!/^-?\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The path of a request URL (`http://host:port/path?query`): from the first '/' after the scheme's '//'. */
export function pathOf(url) {
  const start = url.indexOf('/', 8);
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** The body of `GET /users/:id`. */
export function userBody(id) {
  return { id, name: `user ${id}` };
}

/** Whether a parsed JSON body is `{ name: non-empty string, age: integer >= 0, tags: string[] }`. */
export function isEcho(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { name, age, tags } = value;
  if (typeof name !== 'string' || name.length === 0) return false;
  if (!Number.isInteger(age) || age < 0) return false;
  if (!Array.isArray(tags)) return false;
  for (const tag of tags) if (typeof tag !== 'string') return false;
  return true;
}

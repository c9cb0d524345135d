import { type CallbackMap, HTTP_METHODS } from '../types/index.ts';

/**
 * Shape checks of what a route declares besides its handler, shared by the registry (at registration)
 * and by the OpenAPI module (for webhooks, which are never registered). Each throws a TypeError that
 * starts with `where`, so the message names the route.
 */

/** `responses`: at least one status, each an integer from 100 to 599 (RFC 9110 §15). */
export function assertResponses(where: string, responses: unknown): void {
  if (typeof responses !== 'object' || responses === null || Object.keys(responses).length === 0) {
    throw new TypeError(`${where}: responses must declare at least one status`);
  }
  for (const key of Object.keys(responses)) {
    const status = Number(key);
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      throw new TypeError(`${where}: response status "${key}" must be an integer from 100 to 599`);
    }
  }
}

/** An operation the API sends (a callback or a webhook): a method and its responses. */
export function assertSentOperation(where: string, operation: unknown): void {
  const { method, responses } = (typeof operation === 'object' && operation !== null ? operation : {}) as {
    method?: unknown;
    responses?: unknown;
  };
  if (
    typeof method !== 'string' ||
    !(HTTP_METHODS as readonly string[]).includes(method) ||
    typeof responses !== 'object' ||
    responses === null
  ) {
    throw new TypeError(
      `${where}: must declare method and responses (method: one of ${HTTP_METHODS.join(', ')})`,
    );
  }
  assertResponses(where, responses);
}

/** `callbacks`: callback name to runtime expression to operation (OpenAPI 3.1 §4.8.18). */
export function assertCallbacks(where: string, callbacks: CallbackMap | undefined): void {
  if (callbacks === undefined) return;
  if (typeof callbacks !== 'object' || callbacks === null) {
    throw new TypeError(`${where}: callbacks must map callback names to runtime expressions`);
  }
  for (const [name, expressions] of Object.entries(callbacks)) {
    if (typeof expressions !== 'object' || expressions === null) {
      throw new TypeError(`${where} callback ${name}: must map runtime expressions to operations`);
    }
    for (const [expression, operation] of Object.entries(expressions)) {
      assertSentOperation(`${where} callback ${name}: ${expression}`, operation);
    }
  }
}

/**
 * The second argument of `app.get(path, definition, handler)` and the other shorthands: a definition
 * object. A handler passed in its place (`app.get('/x', (ctx) => ...)`, as in Express or Hono) would
 * otherwise surface as "handler must be a function", which points at the wrong argument.
 */
export function assertShorthandContract(method: string, path: unknown, contract: unknown): void {
  if (typeof contract === 'object' && contract !== null && !Array.isArray(contract)) return;
  const head = `app.${method.toLowerCase()}(${JSON.stringify(String(path)).slice(0, 100)}`;
  const got = typeof contract === 'function' ? 'a function' : contract === null ? 'null' : typeof contract;
  throw new TypeError(
    `${head}, ...): the second argument must be the route definition, an object, but got ${got}. ` +
      `Declare the responses, then pass the handler third: ${head}, { responses: { 200: { body: schema } } }, (ctx) => ({ status: 200, body: ... }))`,
  );
}

import { HttpError } from '../errors/index.ts';
import {
  type AnyHandlerResult,
  type AnyRouteDefinition,
  exampleValue,
  type ResponseSpec,
  type RouteExample,
} from '../types/index.ts';

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The route example whose request matches the validated params and query, else the first one. */
function pickRouteExample(examples: readonly RouteExample[], params: unknown, query: unknown): RouteExample {
  for (const example of examples) {
    const wanted = example.request;
    if (wanted === undefined) continue;
    if (wanted.params !== undefined && !sameValue(wanted.params, params)) continue;
    if (wanted.query !== undefined && !sameValue(wanted.query, query)) continue;
    return example;
  }
  return examples[0] as RouteExample;
}

/**
 * In mock mode (App option `mockMode`), a route's handler answers from what the route declares,
 * so a client team can work against the contract before the server exists:
 *   1. the route's `examples`: the one whose request params/query equal the validated ones, else
 *      the first;
 *   2. else the first declared 2xx status with `examples` on its response (its first entry);
 *   3. else the first declared 2xx status without a body schema (e.g. 204), answered empty;
 *   4. else 501 Not Implemented, naming the route.
 * Hooks and validation run as usual, and the example is validated against the response schema
 * like any handler result, which catches examples that drifted from their schema.
 */
export function mockHandler(definition: AnyRouteDefinition, path: string): AnyRouteDefinition['handler'] {
  const examples = definition.examples ?? [];
  const responses = definition.responses as Record<string, ResponseSpec | undefined>;
  const successes = Object.keys(responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  let fallback: AnyHandlerResult | undefined;
  for (const status of successes) {
    const first = Object.values(responses[status]?.examples ?? {})[0];
    if (first !== undefined) {
      fallback = { status, body: exampleValue(first) };
      break;
    }
  }
  if (fallback === undefined) {
    const empty = successes.find((status) => responses[status]?.body === undefined);
    if (empty !== undefined) fallback = { status: empty };
  }
  return ((ctx: { params: unknown; query: unknown }) => {
    if (examples.length > 0) {
      const { response } = pickRouteExample(examples, ctx.params, ctx.query);
      return { status: response.status, body: response.body, headers: response.headers };
    }
    if (fallback !== undefined) return fallback;
    throw new HttpError({
      status: 501,
      detail: `Mock mode: ${definition.method} ${path} declares no example to answer with`,
      internal: false,
    });
  }) as AnyRouteDefinition['handler'];
}

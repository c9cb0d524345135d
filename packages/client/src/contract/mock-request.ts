/**
 * The request a mock-mode contract test sends to one route: the route's first example's request,
 * its missing parts sampled from the request JSON Schemas, checked against the route's schemas
 * before it is sent (so a failure says "no valid request" rather than blaming the mock).
 */
import { IN_PROCESS_ORIGIN, type RegisteredRoute } from '@charter/core';
import { operationPlan } from '../client.ts';
import { admits, isJsonMediaType } from '../media-type.ts';
import { pathParamNames } from '../path.ts';
import { buildRequest } from '../request.ts';
import type { OperationInput } from '../types.ts';
import { sampleFromJsonSchema } from './sample.ts';
import { REQUEST_PARTS, requestJsonSchema, requestSchema } from './schemas.ts';
import { partProblem, toWire } from './wire.ts';

/** A built request, or why none could be built. */
export type MockRequest = { readonly request: Request } | { readonly problems: readonly string[] };

function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => v === undefined || typeof v !== 'object' || v instanceof Date);
}

/** The body in a media type the route accepts: JSON first, then forms, then text. */
function encodeForRoute(body: unknown, accepted: readonly string[]): { body: unknown; contentType?: string } {
  if (body === undefined || accepted.some((t) => t === '*/*' || isJsonMediaType(t.toLowerCase())))
    return { body };
  if (admits(accepted, 'application/x-www-form-urlencoded') && isFlatRecord(body)) {
    return { body: new URLSearchParams(toWire(body) as Record<string, string>) };
  }
  if (admits(accepted, 'multipart/form-data') && isFlatRecord(body)) {
    const form = new FormData();
    for (const [key, value] of Object.entries(toWire(body))) {
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
    }
    return { body: form };
  }
  const text = accepted.find((t) => t.toLowerCase().startsWith('text/'));
  if (typeof body === 'string' && text !== undefined) {
    return { body, contentType: text.endsWith('/*') ? 'text/plain' : text };
  }
  throw new TypeError(`no way to encode the body as ${accepted.join(', ')}`);
}

/** The parts of the request: the example's first, then samples of the declared schemas. */
function requestParts(route: RegisteredRoute, problems: string[]): OperationInput {
  const definition = route.definition;
  const examples: unknown = definition.examples;
  const given = (Array.isArray(examples) ? examples[0]?.request : undefined) as OperationInput | undefined;
  const input: Record<string, unknown> = {};
  for (const part of REQUEST_PARTS) {
    if (given?.[part] !== undefined) {
      input[part] = given[part];
      continue;
    }
    if (part === 'body' && (route.method === 'GET' || route.method === 'HEAD')) continue;
    const json = requestJsonSchema(definition, part);
    if (json === undefined) {
      // Path parameters without a schema take any text.
      const names = part === 'params' ? pathParamNames(route.path) : [];
      if (names.length > 0) input.params = Object.fromEntries(names.map((name) => [name, 'sample']));
      continue;
    }
    if ('error' in json) {
      problems.push(`request.${part}: no example, and no JSON Schema to sample (${json.error})`);
      continue;
    }
    const sample = sampleFromJsonSchema(json.schema);
    if (sample.ok) input[part] = sample.value;
    else problems.push(`request.${part}: no example, and no sample of its JSON Schema (${sample.reason})`);
  }
  return input as OperationInput;
}

/** Checks the parts against the route's schemas as the pipeline will (text parts converted). */
async function partProblems(route: RegisteredRoute, input: OperationInput): Promise<string[]> {
  const problems: string[] = [];
  for (const part of REQUEST_PARTS) {
    const schema = requestSchema(route.definition, part);
    if (schema === undefined) continue;
    const problem = await partProblem(schema, part, input[part]);
    if (problem === undefined) continue;
    const bodyless = part === 'body' && (route.method === 'GET' || route.method === 'HEAD');
    problems.push(`request.${part}${bodyless ? ` (a ${route.method} request has none)` : ''}: ${problem}`);
  }
  return problems;
}

/** The mock-mode request of one route. */
export async function buildMockRequest(
  route: RegisteredRoute,
  appAccepted: readonly string[],
): Promise<MockRequest> {
  const problems: string[] = [];
  const input = requestParts(route, problems);
  if (problems.length > 0) return { problems };
  const invalid = await partProblems(route, input);
  if (invalid.length > 0) return { problems: invalid };
  const plan = operationPlan(
    { ...route, operationId: route.operationId ?? `${route.method} ${route.path}` },
    appAccepted,
  );
  try {
    const encoded = encodeForRoute(input.body, plan.accepted);
    const headers = toWire(input.headers, true);
    if (encoded.contentType !== undefined) headers['content-type'] = encoded.contentType;
    const request = buildRequest(
      plan,
      { params: input.params, query: toWire(input.query), headers, body: encoded.body },
      IN_PROCESS_ORIGIN,
      new Headers(),
    );
    return { request };
  } catch (error) {
    if (error instanceof TypeError) return { problems: [error.message] };
    throw error;
  }
}

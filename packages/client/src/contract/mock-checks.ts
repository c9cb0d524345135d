/**
 * Mock mode (App option `mockMode`): each route is requested in process and its answer checked
 * against the contract: a declared status, a body valid against that status's schema, declared
 * response headers valid against theirs.
 */
import { type AnySchema, type RegisteredRoute, toJsonSchema, validate } from '@charter/core';
import { describeProblem, formatIssues } from '../errors.ts';
import { isJsonMediaType, mediaType } from '../media-type.ts';
import { hasNoContent, readLooseBody } from '../response.ts';
import type { IssueSink } from './issues.ts';
import { buildMockRequest } from './mock-request.ts';
import { declares, responsesOf } from './schemas.ts';

// Linear-time: the pipeline's own rule for text that converts to a number.
const NUMERIC = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** What the runner needs of an App in mock mode. */
export interface MockApp {
  fetch(request: Request): Promise<Response>;
}

/** A header value against its schema; text that the JSON Schema says is a number or boolean is converted. */
async function headerProblem(schema: AnySchema, value: string): Promise<string | undefined> {
  const first = await validate(schema, value);
  if (first.ok) return undefined;
  const type = toJsonSchema(schema, 'output')?.type;
  const types = Array.isArray(type) ? type : [type];
  let converted: unknown;
  if ((types.includes('number') || types.includes('integer')) && NUMERIC.test(value))
    converted = Number(value);
  else if (types.includes('boolean') && (value === 'true' || value === 'false')) converted = value === 'true';
  if (converted !== undefined && (await validate(schema, converted)).ok) return undefined;
  return formatIssues(first.issues);
}

/** The declared body's problem, or undefined when it matches (or there is no schema to match). */
async function bodyProblem(schema: AnySchema, response: Response): Promise<string | undefined> {
  const type = mediaType(response.headers.get('content-type'));
  let body: unknown;
  if (isJsonMediaType(type)) {
    const text = await response.text();
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      return `the body is not valid JSON although its content type is ${type}`;
    }
  } else if (type === undefined || type.startsWith('text/')) {
    const text = await response.text();
    body = text === '' ? undefined : text;
  } else {
    // Binary bodies have no JSON form to check against the schema.
    await response.body?.cancel();
    return undefined;
  }
  const result = await validate(schema, body);
  return result.ok ? undefined : formatIssues(result.issues);
}

async function checkAnswer(route: RegisteredRoute, response: Response, sink: IssueSink): Promise<void> {
  const status = response.status;
  const definition = route.definition;
  // A route that declares auth may refuse an anonymous caller: its security requirement is contract.
  const denied = route.auth !== undefined && (status === 401 || status === 403);
  if (!declares(definition, status) || denied) {
    const summary = describeProblem(await readLooseBody(route.method, response));
    if (denied) return;
    const declared = Object.keys(responsesOf(definition)).join(', ');
    sink.add(
      route,
      'mock-undeclared-status',
      `mock mode answered ${status}${summary}, which the route does not declare (declared: ${declared})`,
    );
    return;
  }
  const spec = responsesOf(definition)[status];
  for (const [name, header] of Object.entries(spec?.headers ?? {})) {
    const value = response.headers.get(name);
    if (header?.schema === undefined || value === null) continue;
    const problem = await headerProblem(header.schema, value);
    if (problem !== undefined) {
      sink.add(route, 'mock-invalid-response', `the ${status} response header "${name}": ${problem}`);
    }
  }
  if (spec?.body === undefined || hasNoContent(route.method, status)) {
    await response.body?.cancel();
    return;
  }
  const problem = await bodyProblem(spec.body, response);
  if (problem !== undefined)
    sink.add(route, 'mock-invalid-response', `the ${status} response body: ${problem}`);
}

/** Requests one route in process and checks its answer against the contract. */
export async function checkMockAnswer(
  app: MockApp,
  route: RegisteredRoute,
  appAccepted: readonly string[],
  sink: IssueSink,
): Promise<void> {
  const built = await buildMockRequest(route, appAccepted);
  if ('problems' in built) {
    for (const problem of built.problems) {
      sink.add(route, 'mock-no-request', `no valid request could be built: ${problem}`);
    }
    return;
  }
  await checkAnswer(route, await app.fetch(built.request), sink);
}

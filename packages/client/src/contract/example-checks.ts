/**
 * Examples against their schemas: a route's `examples` (request parts with the pipeline's text
 * conversion, response bodies by status) and each response's `examples` map.
 */
import {
  type AnySchema,
  exampleValue,
  type RegisteredRoute,
  type RouteExample,
  validate,
} from '@charter/core';
import { formatIssues } from '../errors.ts';
import { NO_CONTENT_STATUSES } from '../response.ts';
import type { IssueSink } from './issues.ts';
import { declares, REQUEST_PARTS, requestSchema, responsesOf } from './schemas.ts';
import { partProblem } from './wire.ts';

function label(example: RouteExample, index: number): string {
  return typeof example.name === 'string' && example.name !== '' ? `"${example.name}"` : `#${index}`;
}

async function requestProblems(route: RegisteredRoute, request: RouteExample['request']): Promise<string[]> {
  const problems: string[] = [];
  if (request === undefined) return problems;
  for (const part of REQUEST_PARTS) {
    const schema = requestSchema(route.definition, part);
    const value = request[part];
    if (schema === undefined || value === undefined) continue;
    const problem = await partProblem(schema, part, value);
    if (problem !== undefined) problems.push(`request.${part}: ${problem}`);
  }
  return problems;
}

async function bodyProblem(
  schema: AnySchema | undefined,
  status: number,
  body: unknown,
): Promise<string | undefined> {
  if (schema === undefined || NO_CONTENT_STATUSES.has(status)) return undefined;
  const result = await validate(schema, body);
  return result.ok ? undefined : formatIssues(result.issues);
}

async function checkRouteExample(
  route: RegisteredRoute,
  example: RouteExample,
  index: number,
  sink: IssueSink,
): Promise<void> {
  const name = `example ${label(example, index)}`;
  if (typeof example !== 'object' || example === null) {
    sink.add(route, 'invalid-example', `${name} is not an object`);
    return;
  }
  const problems = await requestProblems(route, example.request);
  const response = example.response;
  if (typeof response !== 'object' || response === null || typeof response.status !== 'number') {
    problems.push('it has no response { status, body? }');
  } else if (!declares(route.definition, response.status)) {
    sink.add(
      route,
      'example-undeclared-status',
      `${name} answers ${response.status}, which the route does not declare (declared: ${Object.keys(responsesOf(route.definition)).join(', ')})`,
    );
  } else {
    const schema = responsesOf(route.definition)[response.status]?.body;
    const problem = await bodyProblem(schema, response.status, response.body);
    if (problem !== undefined) problems.push(`response.body (${response.status}): ${problem}`);
  }
  for (const problem of problems) sink.add(route, 'invalid-example', `${name}: ${problem}`);
}

/** Every example of one route against the route's schemas. */
export async function checkExamples(route: RegisteredRoute, sink: IssueSink): Promise<void> {
  const examples: unknown = route.definition.examples;
  if (Array.isArray(examples)) {
    for (const [index, example] of examples.entries()) await checkRouteExample(route, example, index, sink);
  }
  for (const [key, spec] of Object.entries(responsesOf(route.definition))) {
    const entries = spec?.examples;
    if (typeof entries !== 'object' || entries === null) continue;
    for (const [name, entry] of Object.entries(entries)) {
      const problem = await bodyProblem(spec?.body, Number(key), exampleValue(entry));
      if (problem !== undefined) {
        sink.add(route, 'invalid-example', `responses[${key}].examples "${name}": ${problem}`);
      }
    }
  }
}

/** A route's schemas and their JSON Schemas, with the route's `openapi.jsonSchema` overrides first. */
import {
  type AnyRouteDefinition,
  type AnySchema,
  describeJsonSchema,
  isStandardSchema,
  type JsonSchema,
  type JsonSchemaResult,
  type ResponseSpec,
} from '@charter/core';

export type RequestPart = 'params' | 'query' | 'headers' | 'body';
export const REQUEST_PARTS: readonly RequestPart[] = ['params', 'query', 'headers', 'body'];

/** A request part's schema, or undefined when the route declares none. */
export function requestSchema(definition: AnyRouteDefinition, part: RequestPart): AnySchema | undefined {
  const schema: unknown = definition.request?.[part];
  return isStandardSchema(schema) ? schema : undefined;
}

/** The declared responses by status. */
export function responsesOf(
  definition: AnyRouteDefinition,
): Readonly<Record<string, ResponseSpec | undefined>> {
  const responses: unknown = definition.responses;
  return typeof responses === 'object' && responses !== null
    ? (responses as Record<string, ResponseSpec | undefined>)
    : {};
}

/** Whether the route declares this status. */
export function declares(definition: AnyRouteDefinition, status: number): boolean {
  return Object.hasOwn(responsesOf(definition), status);
}

function describe(schema: unknown, direction: 'input' | 'output'): JsonSchemaResult {
  if (!isStandardSchema(schema)) return { error: 'it is not a Standard Schema' };
  return describeJsonSchema(schema, direction);
}

/** The JSON Schema of a request part (the override, else the schema's own `input` form). */
export function requestJsonSchema(
  definition: AnyRouteDefinition,
  part: RequestPart,
): JsonSchemaResult | undefined {
  const override = definition.openapi?.jsonSchema?.[part];
  if (override !== undefined) return { schema: override };
  const schema: unknown = definition.request?.[part];
  return schema === undefined ? undefined : describe(schema, 'input');
}

/** The JSON Schema of a response body (the override, else the schema's own `output` form). */
export function responseJsonSchema(
  definition: AnyRouteDefinition,
  status: string,
): JsonSchemaResult | undefined {
  const override: JsonSchema | undefined = definition.openapi?.jsonSchema?.responses?.[Number(status)];
  if (override !== undefined) return { schema: override };
  const schema: unknown = responsesOf(definition)[status]?.body;
  return schema === undefined ? undefined : describe(schema, 'output');
}

/** The JSON Schema of a declared response header (no override exists for these). */
export function headerJsonSchema(schema: unknown): JsonSchemaResult {
  return describe(schema, 'output');
}

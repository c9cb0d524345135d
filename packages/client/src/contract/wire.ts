/**
 * Request parts as the pipeline sees them: params, query and headers arrive as text and are
 * converted where the schema asks (the same plan and fallback as the pipeline's step 4).
 */
import {
  type AnySchema,
  applyCoercion,
  coerceFromIssues,
  planCoercion,
  type ValidationResult,
  validate,
} from '@charter/core';
import { formatIssues } from '../errors.ts';
import type { RequestPart } from './schemas.ts';

function scalarWire(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  // Anything else cannot travel in a URL or a header: left as is, validation reports it.
  return value;
}

/**
 * The text form of example or sample values, as the router and the query parser would hand them
 * over: scalars become text, an array of one value arrives as that value (`?tag=a`), an empty
 * array not at all; header names are case-insensitive and arrive in lower case (RFC 9110 §5.1).
 */
export function toWire(values: unknown, lowerCaseNames = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof values !== 'object' || values === null) return out;
  for (const [rawKey, value] of Object.entries(values)) {
    const key = lowerCaseNames ? rawKey.toLowerCase() : rawKey;
    if (value === undefined || key === '__proto__') continue;
    if (Array.isArray(value)) {
      const items = value.filter((item) => item !== undefined).map(scalarWire);
      if (items.length === 1) out[key] = items[0];
      else if (items.length > 1) out[key] = items;
      continue;
    }
    out[key] = scalarWire(value);
  }
  return out;
}

// The pipeline's bound on conversion rounds for schemas without a JSON Schema.
const MAX_COERCION_ROUNDS = 3;

/** Validates a text-valued part the way the pipeline does, conversions included. */
export async function validateTextPart(
  schema: AnySchema,
  raw: Record<string, unknown>,
): Promise<ValidationResult<unknown>> {
  const plan = planCoercion(schema);
  if (plan !== undefined) return validate(schema, applyCoercion(raw, plan));
  let input = raw;
  for (let round = 0; ; round++) {
    const result = await validate(schema, input);
    if (result.ok || round >= MAX_COERCION_ROUNDS) return result;
    const coerced = coerceFromIssues(input, result.issues);
    if (coerced === undefined) return result;
    input = coerced;
  }
}

/**
 * The issues of one request part's value (as an example or a sample gives it) against the part's
 * schema, as the pipeline checks it: params, query and headers in their text form and converted,
 * the body as it is. Undefined when the value passes.
 */
export async function partProblem(
  schema: AnySchema,
  part: RequestPart,
  value: unknown,
): Promise<string | undefined> {
  const result =
    part === 'body'
      ? await validate(schema, value)
      : await validateTextPart(schema, toWire(value, part === 'headers'));
  return result.ok ? undefined : formatIssues(result.issues);
}

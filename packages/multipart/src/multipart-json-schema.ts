// The JSON Schema of a multipartObject (Standard JSON Schema, `~standard.jsonSchema`): an object whose
// properties are the fields' own JSON Schemas, which is how OpenAPI 3.1 §4.8.14.4 describes a
// multipart/form-data request body.
import type { JsonSchema } from '@charter/core';
import type { FieldPlan } from './multipart-field.ts';

function fieldJsonSchema(
  plan: FieldPlan,
  direction: 'input' | 'output',
  options: { readonly target: string },
): JsonSchema {
  const standard = plan.schema['~standard'];
  const converter = standard.jsonSchema?.[direction];
  if (typeof converter !== 'function') {
    throw new Error(
      `field "${plan.name}": a ${standard.vendor} schema without the Standard JSON Schema interface cannot describe itself`,
    );
  }
  let json: unknown;
  try {
    json = converter(options);
  } catch (error) {
    throw new Error(`field "${plan.name}": ${(error as Error)?.message ?? String(error)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error(`field "${plan.name}": its ${direction} JSON Schema is not an object`);
  }
  return json as JsonSchema;
}

/**
 * `{ type: 'object', properties, required, additionalProperties }`: each field's JSON Schema as its
 * property (its `$schema` dropped, its `$defs` moved to the root, where its `#/$defs/...` pointers still
 * land), `required` listing the fields that may not be absent, and `additionalProperties: false` when
 * unknown fields are refused. Throws, naming the field, when a field cannot describe itself.
 */
export function objectJsonSchema(
  plans: readonly FieldPlan[],
  strict: boolean,
  direction: 'input' | 'output',
  options: { readonly target: string },
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const defs: Record<string, unknown> = {};
  for (const plan of plans) {
    const { $schema: _dialect, $defs, ...json } = fieldJsonSchema(plan, direction, options);
    if (typeof $defs === 'object' && $defs !== null) {
      for (const [name, def] of Object.entries($defs as Record<string, unknown>)) {
        if (Object.hasOwn(defs, name) && JSON.stringify(defs[name]) !== JSON.stringify(def)) {
          throw new Error(`field "${plan.name}": its definition "${name}" clashes with another field's`);
        }
        defs[name] = def;
      }
    }
    properties[plan.name] = json;
    if (!plan.optional) required.push(plan.name);
  }
  const out: JsonSchema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  if (strict) out.additionalProperties = false;
  if (Object.keys(defs).length > 0) out.$defs = defs;
  return out;
}

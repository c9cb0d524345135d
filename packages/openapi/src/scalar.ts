/**
 * Which media types a response body with a schema and no declared `contentType` goes out in. The
 * pipeline sends a string value as it is, `text/plain; charset=utf-8`, and any other value as JSON
 * text, `application/json` (core pipeline/respond.ts); the document lists exactly the media types the
 * schema lets happen: `text/plain` when it admits a string, `application/json` when it admits anything
 * else, both for a schema that admits both (a string or a number, or anything at all).
 */
import type { JsonSchema } from '@charter/core';

/** What a schema admits, by the media type each kind of value is sent in. */
export interface ScalarMedia {
  /** A string value is possible: sent as `text/plain`. */
  readonly text: boolean;
  /** A non-string value (object, array, number, boolean, null) is possible: sent as `application/json`. */
  readonly json: boolean;
}

const COMPONENTS = '#/components/schemas/';
// Recursive schemas stop here: anything past this depth is taken to admit both kinds.
const MAX_DEPTH = 32;
const BOTH: ScalarMedia = { text: true, json: true };
const NEITHER: ScalarMedia = { text: false, json: false };

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function either(a: ScalarMedia, b: ScalarMedia): ScalarMedia {
  return { text: a.text || b.text, json: a.json || b.json };
}

function both(a: ScalarMedia, b: ScalarMedia): ScalarMedia {
  return { text: a.text && b.text, json: a.json && b.json };
}

function ofValues(values: readonly unknown[]): ScalarMedia {
  return {
    text: values.some((v) => typeof v === 'string'),
    json: values.some((v) => typeof v !== 'string'),
  };
}

/**
 * The kinds of value a JSON Schema (as the generator emits it: `$ref` into `components/schemas`,
 * `type`, `const`, `enum`, `anyOf`, `oneOf`, `allOf`) admits. Over-approximates what it cannot tell.
 */
export function scalarMedia(
  schema: unknown,
  components: Readonly<Record<string, JsonSchema>>,
  depth = 0,
): ScalarMedia {
  if (schema === false) return NEITHER;
  if (!isObject(schema) || depth > MAX_DEPTH) return BOTH;
  let out = BOTH;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = ref.startsWith(COMPONENTS) ? components[ref.slice(COMPONENTS.length)] : undefined;
    out = both(out, target === undefined ? BOTH : scalarMedia(target, components, depth + 1));
  }
  if (Object.hasOwn(schema, 'const')) out = both(out, ofValues([schema.const]));
  if (Array.isArray(schema.enum)) out = both(out, ofValues(schema.enum));
  const type = schema.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const names: unknown[] = Array.isArray(type) ? type : [type];
    out = both(out, { text: names.includes('string'), json: names.some((n) => n !== 'string') });
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      out = both(
        out,
        branches.reduce<ScalarMedia>(
          (acc, branch) => either(acc, scalarMedia(branch, components, depth + 1)),
          NEITHER,
        ),
      );
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) out = both(out, scalarMedia(branch, components, depth + 1));
  }
  return out;
}

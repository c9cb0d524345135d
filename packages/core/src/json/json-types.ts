// The JSON data model as JSON Schema names it (Validation: draft-bhutton-json-schema-validation-01
// §6.1.1, `type`). Shared by the validators that check JSON values against a schema: the MCP
// `tools/call` argument check and the contract fuzzer's response check.

/**
 * True for a JSON object: a non-array object whose prototype is `Object.prototype` or null. What
 * `JSON.parse` makes always passes; a `Date`, `Map` or class instance handed over in process does
 * not, since it has no JSON object form (RFC 8259 §4).
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * True when `value` is of the JSON Schema type `name` (§6.1.1): an integer is also a number, a
 * non-finite number is neither, and an unknown name matches nothing.
 */
export function matchesJsonType(name: unknown, value: unknown): boolean {
  switch (name) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    default:
      return false;
  }
}

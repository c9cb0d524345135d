/**
 * A JSON Schema 2020-12 validator for the subset the OpenAPI generator emits (Core:
 * draft-bhutton-json-schema-01 §10, applicators; Validation: draft-bhutton-json-schema-validation-01
 * §6, assertions). The contract fuzzer checks every answer's body against its document with it.
 * `$ref` resolves JSON Pointers (RFC 6901) against the root it is given: the whole OpenAPI document,
 * so `#/components/schemas/Name` works. `format` is an annotation (Validation §7.2.1) and is not
 * asserted. Recursion follows the schema and is depth-capped; the issue list is capped.
 */
import { type JsonSchema, matchesJsonType } from '@charter/core';

/** Schema levels followed before giving up on a branch (a cyclic `$ref` chain stops here). */
const MAX_DEPTH = 64;
/** Issues reported per value. */
const MAX_ISSUES = 20;

type Path = readonly (string | number)[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function where(path: Path): string {
  if (path.length === 0) return '(root)';
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Structural equality of JSON values (§4.2.2: objects by members, regardless of order). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return false;
}

/** Length in Unicode code points (§6.3.1: not UTF-16 units). */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

class Checker {
  readonly issues: string[] = [];
  readonly #root: unknown;
  readonly #patterns = new Map<string, RegExp | undefined>();

  constructor(root: unknown) {
    this.#root = root;
  }

  get full(): boolean {
    return this.issues.length >= MAX_ISSUES;
  }

  add(path: Path, message: string): void {
    if (!this.full) this.issues.push(`${where(path)} ${message}`);
  }

  /** Whether `value` passes `schema`, without recording anything (for anyOf, oneOf, not, if). */
  passes(schema: unknown, value: unknown, depth: number): boolean {
    const probe = new Checker(this.#root);
    probe.check(schema, value, [], depth);
    return probe.issues.length === 0;
  }

  resolve(ref: string): unknown {
    if (ref === '#') return this.#root;
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = this.#root;
    for (const raw of ref.slice(2).split('/')) {
      let key: string;
      try {
        key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      } catch {
        return undefined;
      }
      if (!isObject(target) && !Array.isArray(target)) return undefined;
      if (!Object.hasOwn(target, key)) return undefined;
      target = (target as Record<string, unknown>)[key];
    }
    return target;
  }

  #pattern(source: string): RegExp | undefined {
    if (!this.#patterns.has(source)) {
      let compiled: RegExp | undefined;
      try {
        compiled = new RegExp(source, 'u');
      } catch {
        compiled = undefined;
      }
      this.#patterns.set(source, compiled);
    }
    return this.#patterns.get(source);
  }

  check(schema: unknown, value: unknown, path: Path, depth: number): void {
    if (this.full) return;
    if (schema === true || schema === undefined) return;
    if (schema === false) return this.add(path, 'is not allowed (false schema)');
    if (!isObject(schema)) return;
    if (depth > MAX_DEPTH)
      return this.add(path, `cannot be checked: the schema nests deeper than ${MAX_DEPTH}`);
    const s = schema as JsonSchema;
    if (typeof s.$ref === 'string') {
      const target = this.resolve(s.$ref);
      if (target === undefined) this.add(path, `cannot be checked: $ref ${s.$ref} does not resolve`);
      else this.check(target, value, path, depth + 1);
    }
    if (s.type !== undefined) {
      const names = Array.isArray(s.type) ? s.type : [s.type];
      if (!names.some((name) => matchesJsonType(name, value))) {
        return this.add(path, `must be ${names.join(' or ')} (was ${show(value)})`);
      }
    }
    if (Object.hasOwn(s, 'const') && !jsonEqual(s.const, value)) this.add(path, `must be ${show(s.const)}`);
    if (Array.isArray(s.enum) && !s.enum.some((item) => jsonEqual(item, value))) {
      this.add(path, `must be one of ${show(s.enum)} (was ${show(value)})`);
    }
    this.#applicators(s, value, path, depth);
    if (typeof value === 'string') this.#string(s, value, path);
    else if (typeof value === 'number') this.#number(s, value, path);
    else if (Array.isArray(value)) this.#array(s, value, path, depth);
    else if (isObject(value)) this.#object(s, value, path, depth);
  }

  #applicators(s: JsonSchema, value: unknown, path: Path, depth: number): void {
    if (Array.isArray(s.allOf)) for (const branch of s.allOf) this.check(branch, value, path, depth + 1);
    if (Array.isArray(s.anyOf) && !s.anyOf.some((branch) => this.passes(branch, value, depth + 1))) {
      this.add(path, 'matches none of the anyOf branches');
    }
    if (Array.isArray(s.oneOf)) {
      const matching = s.oneOf.filter((branch) => this.passes(branch, value, depth + 1)).length;
      if (matching !== 1) this.add(path, `must match exactly one oneOf branch (matches ${matching})`);
    }
    if (s.not !== undefined && this.passes(s.not, value, depth + 1))
      this.add(path, 'must not match the not schema');
    if (s.if !== undefined) {
      const then = this.passes(s.if, value, depth + 1) ? s.then : s.else;
      if (then !== undefined) this.check(then, value, path, depth + 1);
    }
  }

  #string(s: JsonSchema, value: string, path: Path): void {
    const length = typeof s.minLength === 'number' || typeof s.maxLength === 'number' ? codePoints(value) : 0;
    if (typeof s.minLength === 'number' && length < s.minLength) {
      this.add(path, `must be at least ${s.minLength} characters long (was ${length})`);
    }
    if (typeof s.maxLength === 'number' && length > s.maxLength) {
      this.add(path, `must be at most ${s.maxLength} characters long (was ${length})`);
    }
    if (typeof s.pattern === 'string') {
      const pattern = this.#pattern(s.pattern);
      if (pattern !== undefined && !pattern.test(value))
        this.add(path, `must match the pattern ${s.pattern}`);
    }
  }

  #number(s: JsonSchema, value: number, path: Path): void {
    if (typeof s.minimum === 'number' && value < s.minimum)
      this.add(path, `must be >= ${s.minimum} (was ${value})`);
    if (typeof s.maximum === 'number' && value > s.maximum)
      this.add(path, `must be <= ${s.maximum} (was ${value})`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) {
      this.add(path, `must be > ${s.exclusiveMinimum} (was ${value})`);
    }
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) {
      this.add(path, `must be < ${s.exclusiveMaximum} (was ${value})`);
    }
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const quotient = value / s.multipleOf;
      if (Math.abs(quotient - Math.round(quotient)) > 1e-9)
        this.add(path, `must be a multiple of ${s.multipleOf}`);
    }
  }

  #array(s: JsonSchema, value: readonly unknown[], path: Path, depth: number): void {
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      this.add(path, `must have at least ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      this.add(path, `must have at most ${s.maxItems} items`);
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    value.forEach((item, index) => {
      if (index < prefix.length) this.check(prefix[index], item, [...path, index], depth + 1);
      else if (s.items !== undefined) this.check(s.items, item, [...path, index], depth + 1);
    });
    if (s.uniqueItems === true) {
      for (let i = 1; i < value.length; i++) {
        if (value.slice(0, i).some((earlier) => jsonEqual(earlier, value[i]))) {
          this.add([...path, i], 'repeats an earlier item (uniqueItems)');
          break;
        }
      }
    }
    if (s.contains !== undefined) {
      const count = value.filter((item) => this.passes(s.contains, item, depth + 1)).length;
      const min = typeof s.minContains === 'number' ? s.minContains : 1;
      if (count < min) this.add(path, `must contain at least ${min} matching item(s)`);
      if (typeof s.maxContains === 'number' && count > s.maxContains) {
        this.add(path, `must contain at most ${s.maxContains} matching item(s)`);
      }
    }
  }

  #object(s: JsonSchema, value: Record<string, unknown>, path: Path, depth: number): void {
    const keys = Object.keys(value);
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) {
      this.add(path, `must have at least ${s.minProperties} members`);
    }
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) {
      this.add(path, `must have at most ${s.maxProperties} members`);
    }
    if (Array.isArray(s.required)) {
      for (const name of s.required) {
        if (typeof name === 'string' && !Object.hasOwn(value, name)) this.add([...path, name], 'is required');
      }
    }
    if (isObject(s.dependentRequired)) {
      for (const [name, needs] of Object.entries(s.dependentRequired)) {
        if (!Object.hasOwn(value, name) || !Array.isArray(needs)) continue;
        for (const need of needs) {
          if (typeof need === 'string' && !Object.hasOwn(value, need))
            this.add([...path, need], `is required with ${name}`);
        }
      }
    }
    const properties = isObject(s.properties) ? s.properties : {};
    const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
    for (const key of keys) {
      const member = [...path, key];
      if (s.propertyNames !== undefined) this.check(s.propertyNames, key, member, depth + 1);
      let described = false;
      if (Object.hasOwn(properties, key)) {
        described = true;
        this.check(properties[key], value[key], member, depth + 1);
      }
      for (const [source, schema] of patterns) {
        if (this.#pattern(source)?.test(key) === true) {
          described = true;
          this.check(schema, value[key], member, depth + 1);
        }
      }
      if (!described && s.additionalProperties !== undefined) {
        if (s.additionalProperties === false)
          this.add(member, 'is not an allowed member (additionalProperties: false)');
        else this.check(s.additionalProperties, value[key], member, depth + 1);
      }
    }
  }
}

/**
 * The issues of `value` against `schema` (empty when it is valid), each a sentence that starts with
 * where it is (`.user.name`, `[2]`, `(root)`). `root` is what `$ref` pointers resolve against.
 */
export function checkJsonSchema(schema: unknown, value: unknown, root: unknown = schema): string[] {
  const checker = new Checker(root);
  checker.check(schema, value, [], 0);
  return checker.issues;
}

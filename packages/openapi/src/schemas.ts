import { type AnySchema, describeJsonSchema, type JsonSchema } from '@charter/core';
import { type DiscriminatedUnion, isDiscriminatedUnion } from './discriminator.ts';
import { OpenAPIError } from './errors.ts';
import {
  COMPONENT_NAME,
  canonicalJson,
  collectRefs,
  componentName,
  isStandardSchema,
  rewriteJson,
} from './json-walk.ts';

const COMPONENTS = '#/components/schemas/';

/** Where a schema is used, for error messages and for naming a reused schema. */
export interface SchemaSite {
  /** `Route GET /users/:id`, `Webhook newTodo`... */
  readonly owner: string;
  /** `request body`, `response 200 body`... */
  readonly part: string;
  /** Name the component gets if this schema turns out to be reused and has no name of its own. */
  readonly suggestedName: string;
}

/**
 * Turns the routes' schemas into JSON Schema for the document and decides which of them go to
 * `components/schemas` (referenced with `$ref`): the schemas named in the generator's `schemas`
 * option (also where they appear nested inside another schema), schemas used in more than one place
 * (named by their JSON Schema `title`, else after their first use), the branches of a
 * `discriminatedUnion`, and the `$defs` a library emits for recursive or aliased types.
 */
export class SchemaRegistry {
  readonly components: Record<string, JsonSchema> = {};
  readonly #explicit = new Map<AnySchema, string>();
  /** Canonical JSON of each explicitly named schema, for finding them nested in other schemas. */
  readonly #explicitJson = new Map<string, string>();
  readonly #uses = new Map<AnySchema, number>();
  /** Component already made for a schema object, per direction. */
  readonly #made = new Map<AnySchema, { input?: string; output?: string }>();

  constructor(named: Readonly<Record<string, AnySchema>> = {}) {
    for (const [name, schema] of Object.entries(named)) {
      if (!COMPONENT_NAME.test(name)) {
        throw new OpenAPIError(`schemas.${name}: a component name must match ^[A-Za-z0-9._-]+$`);
      }
      if (!isStandardSchema(schema)) {
        throw new OpenAPIError(`schemas.${name}: not a Standard Schema`);
      }
      if (this.#explicit.has(schema)) {
        throw new OpenAPIError(
          `schemas.${name}: the same schema is already named "${this.#explicit.get(schema)}"`,
        );
      }
      this.#explicit.set(schema, name);
    }
    for (const [schema, name] of this.#explicit) {
      const json = this.#convert(schema, 'output', {
        owner: `schemas.${name}`,
        part: 'schema',
        suggestedName: name,
      });
      this.components[name] = json;
      this.#made.set(schema, { input: name, output: name });
      // Only composite schemas are recognised by shape when nested: a named `{ type: 'string' }` would
      // otherwise claim every plain string of the document.
      if (isComposite(json)) this.#explicitJson.set(canonicalJson(json), name);
    }
    // Named schemas nest in one another (a Todo holds a User): refer rather than repeat.
    for (const name of this.#explicit.values()) {
      this.components[name] = this.#nestRefs(this.components[name] as JsonSchema, true);
    }
  }

  /** First pass: counts where each schema object is used, so reuse is known before any is emitted. */
  countUse(schema: AnySchema | undefined): void {
    if (schema !== undefined) this.#uses.set(schema, (this.#uses.get(schema) ?? 0) + 1);
  }

  /**
   * The JSON Schema to put at a site: a `$ref` for a component, else the schema inline.
   * `override` is the route's `openapi.jsonSchema` escape hatch, used as given. `inline` asks for the
   * schema itself even when it is a component (parameters are listed from an object's properties).
   */
  schemaFor(
    schema: AnySchema,
    direction: 'input' | 'output',
    site: SchemaSite,
    override?: JsonSchema,
    inline = false,
  ): JsonSchema {
    if (override !== undefined) return this.#finish(structuredClone(override), site);
    const explicit = this.#explicit.get(schema);
    if (explicit !== undefined) {
      return inline
        ? structuredClone(this.components[explicit] as JsonSchema)
        : { $ref: COMPONENTS + explicit };
    }
    const made = this.#made.get(schema)?.[direction];
    if (made !== undefined && !inline) return { $ref: COMPONENTS + made };
    const json = this.#convert(schema, direction, site);
    if (inline) return json;
    const reused = (this.#uses.get(schema) ?? 0) > 1;
    const selfReferencing = collectRefs(json).has('#');
    if (!reused && !selfReferencing) return json;
    // The same schema met in the other direction: one component when both directions describe it alike.
    const other = this.#made.get(schema)?.[direction === 'input' ? 'output' : 'input'];
    if (other !== undefined && canonicalJson(this.components[other]) === canonicalJson(json)) {
      this.#made.set(schema, { ...this.#made.get(schema), [direction]: other });
      return { $ref: COMPONENTS + other };
    }
    const title = typeof json.title === 'string' && COMPONENT_NAME.test(json.title) ? json.title : undefined;
    const name = this.#claim(title ?? site.suggestedName, json);
    this.components[name] = selfReferencing ? retarget(json, '#', COMPONENTS + name) : json;
    this.#made.set(schema, { ...this.#made.get(schema), [direction]: name });
    return { $ref: COMPONENTS + name };
  }

  /** A free component name (`Name`, `Name2`...), or the name already holding an identical schema. */
  #claim(wanted: string, json: JsonSchema): string {
    const base = componentName(wanted);
    const text = canonicalJson(json);
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}${n}`;
      const existing = this.components[name];
      if (existing === undefined) return name;
      if (canonicalJson(existing) === text) return name;
    }
  }

  /** The library's JSON Schema, or an OpenAPIError that says which schema could not describe itself. */
  #convert(schema: AnySchema, direction: 'input' | 'output', site: SchemaSite): JsonSchema {
    if (isDiscriminatedUnion(schema)) return this.#union(schema, direction, site);
    const result = describeJsonSchema(schema, direction);
    if ('error' in result) {
      throw new OpenAPIError(`${site.owner}: ${site.part}: ${result.error}`);
    }
    return this.#finish(result.schema, site);
  }

  /** `oneOf` of component refs plus the discriminator mapping to them. */
  #union(
    union: DiscriminatedUnion<Record<string, AnySchema>>,
    direction: 'input' | 'output',
    site: SchemaSite,
  ): JsonSchema {
    const oneOf: JsonSchema[] = [];
    const mapping: Record<string, string> = {};
    for (const [tag, branch] of Object.entries(union.branches)) {
      const name = this.#explicit.get(branch) ?? this.#made.get(branch)?.[direction];
      let ref: string;
      if (name !== undefined) {
        ref = COMPONENTS + name;
      } else {
        const json = this.#convert(branch, direction, { ...site, part: `${site.part} (branch "${tag}")` });
        const claimed = this.#claim(union.names[tag] ?? tag, json);
        this.components[claimed] = json;
        this.#made.set(branch, { ...this.#made.get(branch), [direction]: claimed });
        ref = COMPONENTS + claimed;
      }
      oneOf.push({ $ref: ref });
      mapping[tag] = ref;
    }
    return { oneOf, discriminator: { propertyName: union.propertyName, mapping } };
  }

  /**
   * Makes a library's JSON Schema fit the document: drops `$schema` (3.1 documents default to draft
   * 2020-12), hoists `$defs` into components (rewriting their `$ref`s), and puts a `$ref` where an
   * explicitly named schema appears nested.
   */
  #finish(json: JsonSchema, site: SchemaSite): JsonSchema {
    let { $schema: _dialect, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    if ($defs !== undefined && typeof $defs === 'object') {
      const renames = new Map<string, string>();
      for (const [key, def] of Object.entries($defs)) {
        // Library-internal ids (zod's `__schema0`, arktype's `intersection222`) change as a program
        // defines more types; name those after their first use so the document stays stable.
        const internal = key.startsWith('__') || /^[A-Za-z]+[0-9]+$/.test(key);
        const name = this.#claim(internal ? `${site.suggestedName}Def` : key, def);
        // Reserved now, so the next definition does not claim the same name; rewritten below.
        this.components[name] = def;
        renames.set(`#/$defs/${key}`, COMPONENTS + name);
      }
      const rewrite = (value: unknown): JsonSchema =>
        rewriteJson(value, (node) => {
          const ref = node.$ref;
          if (typeof ref !== 'string') return node;
          for (const [from, to] of renames) {
            if (ref === from || ref.startsWith(`${from}/`))
              return { ...node, $ref: to + ref.slice(from.length) };
          }
          return node;
        }) as JsonSchema;
      for (const [key, def] of Object.entries($defs)) {
        const target = renames.get(`#/$defs/${key}`) as string;
        this.components[target.slice(COMPONENTS.length)] = this.#nestRefs(rewrite(def), false);
      }
      rest = rewrite(rest);
    }
    return this.#nestRefs(rest, true);
  }

  /** Replaces nested copies of explicitly named schemas with `$ref`s (the root itself stays). */
  #nestRefs(json: JsonSchema, skipRoot: boolean): JsonSchema {
    if (this.#explicitJson.size === 0) return json;
    return rewriteJson(json, (node, isRoot) => {
      if (isRoot && skipRoot) return node;
      const name = this.#explicitJson.get(canonicalJson(node));
      return name === undefined ? node : { $ref: COMPONENTS + name };
    }) as JsonSchema;
  }
}

/** Rewrites `$ref: from` (and `from/...` pointers) to `to`. */
function retarget(json: JsonSchema, from: string, to: string): JsonSchema {
  return rewriteJson(json, (node) => {
    const ref = node.$ref;
    if (ref === from) return { ...node, $ref: to };
    if (typeof ref === 'string' && ref.startsWith(`${from}/`))
      return { ...node, $ref: to + ref.slice(from.length) };
    return node;
  }) as JsonSchema;
}

/** An object, array or combined schema: specific enough to be recognised by its shape. */
function isComposite(json: JsonSchema): boolean {
  return ['properties', 'items', 'prefixItems', 'oneOf', 'anyOf', 'allOf', 'additionalProperties'].some(
    (k) => k in json,
  );
}

import { type AnySchema, describeJsonSchema, isStandardSchema, type JsonSchema } from '@charter/core';
import { type DiscriminatedUnion, isDiscriminatedUnion } from './discriminator.ts';
import { OpenAPIError } from './errors.ts';
import {
  COMPONENT_NAME,
  canonicalJson,
  collectRefs,
  componentName,
  mapRefs,
  numberedName,
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

/** A library's JSON Schema made to fit the document, and the components its `$defs` became. */
interface Converted {
  readonly json: JsonSchema;
  readonly defs: readonly string[];
}

/**
 * Turns the routes' schemas into JSON Schema for the document and decides which of them go to
 * `components/schemas` (referenced with `$ref`): the schemas named in the generator's `schemas`
 * option (also where they appear nested inside another schema), schemas used in more than one place
 * (named by their JSON Schema `title`, else after their first use), schemas that point into themselves
 * (`$ref: '#'`), the branches of a `discriminatedUnion`, and the `$defs` a library emits for recursive
 * or aliased types.
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
      this.#place(
        name,
        this.#convert(schema, 'output', { owner: `schemas.${name}`, part: 'schema', suggestedName: name }),
      );
      this.#made.set(schema, { input: name, output: name });
      const json = this.components[name] as JsonSchema;
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
    if (override !== undefined) {
      const converted = this.#finish(structuredClone(override), site);
      if (inline || !this.#selfReferencing(converted)) return converted.json;
      return refTo(this.#place(this.#claim(nameOf(converted.json, site), converted.json), converted));
    }
    const explicit = this.#explicit.get(schema);
    if (explicit !== undefined) {
      return inline ? structuredClone(this.components[explicit] as JsonSchema) : refTo(explicit);
    }
    const made = this.#made.get(schema)?.[direction];
    if (made !== undefined && !inline) return refTo(made);
    const converted = this.#convert(schema, direction, site);
    if (inline) return converted.json;
    const reused = (this.#uses.get(schema) ?? 0) > 1;
    // A schema pointing into its own root cannot sit inline: `#` would mean the document.
    if (!reused && !this.#selfReferencing(converted)) return converted.json;
    // The same schema met in the other direction: one component when both directions describe it alike.
    const other = this.#made.get(schema)?.[direction === 'input' ? 'output' : 'input'];
    const name =
      other !== undefined &&
      canonicalJson(this.components[other]) === canonicalJson(retargetRoot(converted.json, other))
        ? other
        : this.#place(this.#claim(nameOf(converted.json, site), converted.json), converted);
    this.#made.set(schema, { ...this.#made.get(schema), [direction]: name });
    return refTo(name);
  }

  /**
   * A free component name (`Name`, `Name2`...), or the name already holding this very schema (as it
   * would be stored there, its pointers into itself aimed at that component).
   */
  #claim(wanted: string, json: JsonSchema): string {
    const base = componentName(wanted);
    for (let n = 1; ; n++) {
      const name = numberedName(base, n);
      const existing = this.components[name];
      if (existing === undefined) return name;
      if (canonicalJson(existing) === canonicalJson(retargetRoot(json, name))) return name;
    }
  }

  /** Stores a converted schema as component `name`, its pointers into itself (its `$defs` too) aimed there. */
  #place(name: string, converted: Converted): string {
    this.components[name] = retargetRoot(converted.json, name);
    for (const def of converted.defs) {
      this.components[def] = retargetRoot(this.components[def] as JsonSchema, name);
    }
    return name;
  }

  /** Whether a schema, or one of the `$defs` it brought, points into the schema's own root. */
  #selfReferencing(converted: Converted): boolean {
    return (
      hasRootPointer(converted.json) ||
      converted.defs.some((def) => hasRootPointer(this.components[def] as JsonSchema))
    );
  }

  /** The library's JSON Schema, or an OpenAPIError that says which schema could not describe itself. */
  #convert(schema: AnySchema, direction: 'input' | 'output', site: SchemaSite): Converted {
    if (isDiscriminatedUnion(schema)) return { json: this.#union(schema, direction, site), defs: [] };
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
      let name = this.#explicit.get(branch) ?? this.#made.get(branch)?.[direction];
      if (name === undefined) {
        const converted = this.#convert(branch, direction, {
          ...site,
          part: `${site.part} (branch "${tag}")`,
        });
        name = this.#place(this.#claim(union.names[tag] ?? tag, converted.json), converted);
        this.#made.set(branch, { ...this.#made.get(branch), [direction]: name });
      }
      oneOf.push(refTo(name));
      mapping[tag] = COMPONENTS + name;
    }
    return { oneOf, discriminator: { propertyName: union.propertyName, mapping } };
  }

  /**
   * Makes a library's JSON Schema fit the document: drops `$schema` (3.1 documents default to draft
   * 2020-12), hoists `$defs` into components (rewriting their `$ref`s), and puts a `$ref` where an
   * explicitly named schema appears nested.
   */
  #finish(json: JsonSchema, site: SchemaSite): Converted {
    const { $schema: _dialect, $defs, ...root } = json;
    if (typeof $defs !== 'object' || $defs === null) return { json: this.#nestRefs(root, true), defs: [] };
    // Library-internal ids (zod's `__schema0`, arktype's `intersection222`) change as a program
    // defines more types; name those after their first use so the document stays stable.
    const slots = Object.entries($defs as Record<string, JsonSchema>).map(([key, def]) => ({
      from: `#/$defs/${pointerToken(key)}`,
      def,
      base: componentName(
        key.startsWith('__') || /^[A-Za-z]+[0-9]+$/.test(key) ? `${site.suggestedName}Def` : key,
      ),
      n: 1,
      name: '',
    }));
    // A definition takes its name when the name is free or already holds the very same definition (the
    // same `$defs` met again, as when a zod `meta({ id })` schema is used by several routes); otherwise
    // the next number. Renaming one definition changes the `$ref`s of the others, so look again until
    // none clashes: each round raises a number, and numbers past the existing components are free.
    for (;;) {
      const taken = new Set<string>();
      for (const slot of slots) {
        // Two definitions of one schema never share a name.
        while (taken.has(numberedName(slot.base, slot.n))) slot.n++;
        slot.name = numberedName(slot.base, slot.n);
        taken.add(slot.name);
      }
      const rename = (value: unknown): JsonSchema =>
        mapRefs(value, (ref) => {
          for (const { from, name } of slots) {
            if (ref === from || ref.startsWith(`${from}/`)) return COMPONENTS + name + ref.slice(from.length);
          }
          return undefined;
        }) as JsonSchema;
      const defs = slots.map((slot) => this.#nestRefs(rename(slot.def), false));
      const clash = slots.find((slot, i) => {
        const existing = this.components[slot.name];
        return existing !== undefined && canonicalJson(existing) !== canonicalJson(defs[i]);
      });
      if (clash !== undefined) {
        clash.n++;
        continue;
      }
      slots.forEach((slot, i) => {
        this.components[slot.name] = defs[i] as JsonSchema;
      });
      return { json: this.#nestRefs(rename(root), true), defs: slots.map((slot) => slot.name) };
    }
  }

  /** Replaces nested copies of explicitly named schemas with `$ref`s (the root itself stays). */
  #nestRefs(json: JsonSchema, skipRoot: boolean): JsonSchema {
    if (this.#explicitJson.size === 0) return json;
    return rewriteJson(json, (node, isRoot) => {
      if (isRoot && skipRoot) return node;
      const name = this.#explicitJson.get(canonicalJson(node));
      return name === undefined ? node : refTo(name);
    }) as JsonSchema;
  }
}

function refTo(name: string): JsonSchema {
  return { $ref: COMPONENTS + name };
}

/** The component name a schema asks for: its JSON Schema `title` when usable, else its site's. */
function nameOf(json: JsonSchema, site: SchemaSite): string {
  return typeof json.title === 'string' && COMPONENT_NAME.test(json.title) ? json.title : site.suggestedName;
}

/** RFC 6901 §3: a JSON Pointer reference token escapes `~` and `/`. */
function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * A pointer into the schema's own root (`#`, `#/properties/a`): once `$defs` are hoisted, every `#/`
 * pointer not into the components is one.
 */
function isRootPointer(ref: string): boolean {
  return ref === '#' || (ref.startsWith('#/') && !ref.startsWith(COMPONENTS));
}

function hasRootPointer(json: JsonSchema): boolean {
  for (const ref of collectRefs(json)) if (isRootPointer(ref)) return true;
  return false;
}

/** Aims a schema's pointers into its own root at the component `name` that holds it. */
function retargetRoot(json: JsonSchema, name: string): JsonSchema {
  return mapRefs(json, (ref) =>
    isRootPointer(ref) ? COMPONENTS + name + ref.slice(1) : undefined,
  ) as JsonSchema;
}

/** An object, array or combined schema: specific enough to be recognised by its shape. */
function isComposite(json: JsonSchema): boolean {
  return ['properties', 'items', 'prefixItems', 'oneOf', 'anyOf', 'allOf', 'additionalProperties'].some(
    (k) => k in json,
  );
}

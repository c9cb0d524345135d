import { describe, expect, test } from 'bun:test';
import { App, type StandardSchemaV1 } from '@charter/core';
import { type } from 'arktype';
import * as v from 'valibot';
import { discriminatedUnion, discriminator, isDiscriminatedUnion } from './discriminator.ts';
import { OpenAPIError } from './errors.ts';
import { generateOpenAPI } from './generate.ts';

const info = { title: 'Pets', version: '1.0.0' };

const Cat = type({ kind: "'cat'", name: 'string', lives: '0 <= number.integer <= 9' });
const Dog = type({ kind: "'dog'", name: 'string', goodBoy: 'boolean' });

/** A Standard Schema that validates asynchronously, as some libraries' refinements do. */
function asyncSchema(accept: (value: unknown) => boolean): StandardSchemaV1<unknown, unknown> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: async (value: unknown) => {
        await Promise.resolve();
        return accept(value) ? { value } : { issues: [{ message: 'refused by the async branch' }] };
      },
    },
  };
}

async function validate(schema: StandardSchemaV1<unknown, unknown>, value: unknown) {
  return await schema['~standard'].validate(value);
}

/** The components the routes' own schemas made (the framework's problem documents left aside). */
function ownSchemaNames(doc: { components?: { schemas?: Record<string, unknown> } }): string[] {
  return Object.keys(doc.components?.schemas ?? {}).filter((n) => !n.endsWith('ProblemDetails'));
}

describe('discriminator', () => {
  test('returns a frozen Discriminator Object with only propertyName when no mapping is given', () => {
    const d = discriminator({ propertyName: 'kind' });
    expect(d).toEqual({ propertyName: 'kind' });
    expect('mapping' in d).toBe(false);
    expect(Object.isFrozen(d)).toBe(true);
  });

  test('copies and freezes the mapping, so later changes to the caller object do not leak in', () => {
    const mapping: Record<string, string> = { cat: '#/components/schemas/Cat', dog: 'Dog' };
    const d = discriminator({ propertyName: 'kind', mapping });
    mapping.cat = 'Changed';
    expect(d.mapping).toEqual({ cat: '#/components/schemas/Cat', dog: 'Dog' });
    expect(Object.isFrozen(d.mapping)).toBe(true);
  });

  test('refuses options that are not an object', () => {
    expect(() => discriminator(null as never)).toThrow(TypeError);
    expect(() => discriminator('kind' as never)).toThrow('discriminator() takes options');
  });

  test('refuses an empty or non-string propertyName', () => {
    expect(() => discriminator({ propertyName: '' })).toThrow('propertyName must be a non-empty string');
    expect(() => discriminator({ propertyName: 3 as never })).toThrow(TypeError);
  });

  test('refuses a mapping that is not a plain object', () => {
    for (const mapping of [null, ['Cat'], 'Cat']) {
      expect(() => discriminator({ propertyName: 'kind', mapping: mapping as never })).toThrow(
        'mapping must map property values',
      );
    }
  });

  test('refuses a mapping target that is empty or not a string, naming the value', () => {
    expect(() => discriminator({ propertyName: 'kind', mapping: { cat: '' } })).toThrow('mapping.cat');
    expect(() => discriminator({ propertyName: 'kind', mapping: { dog: 1 as never } })).toThrow(TypeError);
  });
});

describe('discriminatedUnion', () => {
  const Pet = discriminatedUnion('kind', { cat: Cat, dog: Dog });

  test('is recognised as a discriminated union; other schemas are not', () => {
    expect(isDiscriminatedUnion(Pet)).toBe(true);
    expect(isDiscriminatedUnion(Cat)).toBe(false);
    expect(isDiscriminatedUnion({ ...Pet })).toBe(false);
  });

  test('accepts a value of the branch its tag names and returns that branch result', async () => {
    expect(await validate(Pet, { kind: 'dog', name: 'Rex', goodBoy: true })).toEqual({
      value: { kind: 'dog', name: 'Rex', goodBoy: true },
    });
  });

  test('refuses an unknown tag with one issue at [propertyName] that lists the allowed tags', async () => {
    const result = await validate(Pet, { kind: 'cow', name: 'Bessie' });
    expect(result.issues).toEqual([{ message: '"kind" must be one of "cat", "dog"', path: ['kind'] }]);
  });

  test('refuses a missing or non-string tag, and an inherited property name used as a tag', async () => {
    for (const value of [{ name: 'x' }, { kind: 1 }, { kind: 'toString' }, { kind: '__proto__' }]) {
      const result = await validate(Pet, value);
      expect(result.issues?.[0]?.path).toEqual(['kind']);
    }
  });

  test('refuses a value that is not an object with one issue without a path', async () => {
    for (const value of [null, undefined, 'cat', 3, ['cat']]) {
      const result = await validate(Pet, value);
      expect(result.issues).toEqual([{ message: 'Expected an object with a "kind" property' }]);
    }
  });

  test('runs only the tagged branch, so a failure carries that branch issues (its field paths)', async () => {
    const result = await validate(Pet, { kind: 'cat', name: 'Tom', lives: 12 });
    expect(result.issues?.length).toBe(1);
    expect(result.issues?.[0]?.path).toEqual(['lives']);
    // A dog-only field is not asked of a cat: the issue is not about goodBoy.
    expect(JSON.stringify(result.issues)).not.toContain('goodBoy');
  });

  test('works with an asynchronous branch: validate returns its promise', async () => {
    const union = discriminatedUnion('type', {
      a: asyncSchema((value) => (value as { n?: unknown }).n === 1),
    });
    const pending = union['~standard'].validate({ type: 'a', n: 1 });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ value: { type: 'a', n: 1 } });
    expect(await union['~standard'].validate({ type: 'a', n: 2 })).toEqual({
      issues: [{ message: 'refused by the async branch' }],
    });
  });

  test('describes itself through ~standard.jsonSchema as oneOf the branches plus a discriminator', () => {
    const json = Pet['~standard'].jsonSchema?.input({ target: 'draft-2020-12' });
    expect(json).toEqual({
      oneOf: [
        {
          type: 'object',
          properties: {
            kind: { const: 'cat' },
            lives: { type: 'integer', minimum: 0, maximum: 9 },
            name: { type: 'string' },
          },
          required: ['kind', 'lives', 'name'],
        },
        {
          type: 'object',
          properties: { goodBoy: { type: 'boolean' }, kind: { const: 'dog' }, name: { type: 'string' } },
          required: ['goodBoy', 'kind', 'name'],
        },
      ],
      discriminator: { propertyName: 'kind' },
    });
  });

  test('its JSON Schema follows the direction: a parsing branch is a string in input, a number in output', () => {
    const union = discriminatedUnion('kind', { n: type({ kind: "'n'", value: 'string.numeric.parse' }) });
    const input = union['~standard'].jsonSchema?.input({ target: 'draft-2020-12' }) as { oneOf: any[] };
    const output = union['~standard'].jsonSchema?.output({ target: 'draft-2020-12' }) as { oneOf: any[] };
    expect(input.oneOf[0].properties.value.type).toBe('string');
    expect(output.oneOf[0].properties.value.type).toBe('number');
  });

  test('its JSON Schema throws, naming the branch, when a branch cannot describe itself', () => {
    const union = discriminatedUnion('kind', { cat: Cat, v: v.object({ kind: v.literal('v') }) });
    expect(() => union['~standard'].jsonSchema?.input({ target: 'draft-2020-12' })).toThrow('branch "v"');
  });

  test('names each branch after its tag in PascalCase by default, or as the names option says', () => {
    expect(discriminatedUnion('kind', { 'hot-dog': Dog, cat: Cat }).names).toEqual({
      'hot-dog': 'HotDog',
      cat: 'Cat',
    });
    expect(discriminatedUnion('kind', { cat: Cat, dog: Dog }, { names: { dog: 'Canine' } }).names).toEqual({
      cat: 'Cat',
      dog: 'Canine',
    });
  });

  test('refuses an empty or non-string property name', () => {
    expect(() => discriminatedUnion('', { cat: Cat })).toThrow(
      'the property name must be a non-empty string',
    );
    expect(() => discriminatedUnion(1 as never, { cat: Cat })).toThrow(TypeError);
  });

  test('refuses branches that are missing, empty or not Standard Schemas', () => {
    expect(() => discriminatedUnion('kind', {})).toThrow('branches must map at least one tag value');
    expect(() => discriminatedUnion('kind', null as never)).toThrow(TypeError);
    expect(() => discriminatedUnion('kind', { cat: { type: 'object' } as never })).toThrow(
      'branch "cat" is not a Standard Schema',
    );
  });

  test('refuses a component name that OpenAPI does not allow (§4.8.7: ^[a-zA-Z0-9.\\-_]+$)', () => {
    expect(() => discriminatedUnion('kind', { cat: Cat }, { names: { cat: 'House cat' } })).toThrow(
      'names.cat must match',
    );
    expect(() => discriminatedUnion('kind', { cat: Cat }, { names: { cat: '' } })).toThrow(TypeError);
    expect(() => discriminatedUnion('kind', { cat: Cat }, { names: { cat: 7 as never } })).toThrow(TypeError);
  });
});

describe('discriminatedUnion in an OpenAPI document', () => {
  function petApp(Pet: StandardSchemaV1<unknown, unknown>) {
    const app = new App({ logger: false });
    app.post(
      '/pets',
      {
        operationId: 'createPet',
        request: { body: Pet, contentTypes: ['application/json'] },
        responses: { 201: { body: Pet } },
      },
      (ctx) => ({ status: 201, body: ctx.body }),
    );
    return app;
  }

  test('puts each branch in components/schemas and the union as oneOf of refs with a discriminator mapping', () => {
    const doc = generateOpenAPI(petApp(discriminatedUnion('kind', { cat: Cat, dog: Dog })), { info });
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.Cat).toMatchObject({ type: 'object', properties: { kind: { const: 'cat' } } });
    expect(schemas.Dog).toMatchObject({ type: 'object', properties: { kind: { const: 'dog' } } });
    const body = doc.paths['/pets']?.post?.requestBody?.content['application/json']?.schema as {
      $ref: string;
    };
    const union = schemas[body.$ref.slice('#/components/schemas/'.length)];
    expect(union).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: {
        propertyName: 'kind',
        mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' },
      },
    });
  });

  test('request and response share the union and its branch components (no Cat2, no second union)', () => {
    const doc = generateOpenAPI(petApp(discriminatedUnion('kind', { cat: Cat, dog: Dog })), { info });
    const op = doc.paths['/pets']?.post;
    const request = op?.requestBody?.content['application/json']?.schema;
    const response = op?.responses['201']?.content?.['application/json']?.schema;
    expect(response).toEqual(request as Record<string, unknown>);
    expect(ownSchemaNames(doc).sort()).toEqual(['Cat', 'CreatePetBody', 'Dog']);
  });

  test('the names option names the branch components and the mapping targets', () => {
    const Pet = discriminatedUnion(
      'kind',
      { cat: Cat, dog: Dog },
      { names: { cat: 'Feline', dog: 'Canine' } },
    );
    const doc = generateOpenAPI(petApp(Pet), { info });
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(expect.arrayContaining(['Feline', 'Canine']));
    expect(JSON.stringify(doc)).toContain('"cat":"#/components/schemas/Feline"');
    expect(doc.components?.schemas?.Cat).toBeUndefined();
  });

  test('a branch that is a named schema maps to that component instead of a copy', () => {
    const doc = generateOpenAPI(petApp(discriminatedUnion('kind', { cat: Cat, dog: Dog })), {
      info,
      schemas: { HouseCat: Cat },
    });
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.Cat).toBeUndefined();
    expect(JSON.stringify(schemas)).toContain('"cat":"#/components/schemas/HouseCat"');
  });

  test('a branch name taken by a different schema gets a suffix, and the mapping follows it', () => {
    const OtherCat = type({ meow: 'string' });
    const app = petApp(discriminatedUnion('kind', { cat: Cat, dog: Dog }));
    const doc = generateOpenAPI(app, { info, schemas: { Cat: OtherCat } });
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.Cat).toEqual({
      type: 'object',
      properties: { meow: { type: 'string' } },
      required: ['meow'],
    });
    expect(schemas.Cat2).toMatchObject({ properties: { kind: { const: 'cat' } } });
    expect(JSON.stringify(schemas)).toContain('"cat":"#/components/schemas/Cat2"');
  });

  test('a branch that cannot describe itself is an OpenAPIError naming the route, the part and the branch', () => {
    const Pet = discriminatedUnion('kind', { cat: Cat, v: v.object({ kind: v.literal('v') }) });
    const run = () => generateOpenAPI(petApp(Pet), { info });
    expect(run).toThrow(OpenAPIError);
    expect(run).toThrow('Route POST /pets: request body (branch "v")');
  });
});

import { describe, expect, test } from 'bun:test';
import type { InferOutput, StandardResult } from '@charter/core';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { fileField } from './file-field.ts';
import { FILE_SIGNATURES } from './magic-bytes.ts';
import { isMultipartObjectSchema, multipartObject } from './multipart-object.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
const png = (): File => new File([PNG], 'a.png', { type: 'image/png' });

type Issue = { path: string[]; message: string };
function issuesOf(result: StandardResult<unknown>): Issue[] {
  return (result.issues ?? []).map((issue) => ({
    path: (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)),
    message: issue.message,
  }));
}
function sync<T>(result: StandardResult<T> | Promise<StandardResult<T>>): StandardResult<T> {
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return result;
}

describe('multipartObject', () => {
  const Upload = multipartObject({
    file: fileField(),
    title: type('string > 0'),
    'note?': type('string'),
  });

  test('gives the fields as their schemas output them, synchronously when every field is sync', () => {
    const file = png();
    const result = sync(Upload['~standard'].validate({ file, title: 'Holiday' }));
    expect(result).toEqual({ value: { file, title: 'Holiday' } });
    // The inferred output: `note` optional, `title` and `file` required (checked by tsc).
    const typed: InferOutput<typeof Upload> = { file, title: 'x' };
    // @ts-expect-error title is required
    const missing: InferOutput<typeof Upload> = { file };
    expect([typed.note, missing.title]).toEqual([undefined, undefined]);
  });

  test('refuses unknown fields by default, each with its path', () => {
    const result = sync(Upload['~standard'].validate({ file: png(), title: 't', extra: 'x', other: png() }));
    expect(issuesOf(result)).toEqual([
      { path: ['extra'], message: 'Unknown field' },
      { path: ['other'], message: 'Unknown field' },
    ]);
  });

  test('strict: false leaves unknown fields out of the value', () => {
    const loose = multipartObject({ title: type('string') }, { strict: false });
    expect(sync(loose['~standard'].validate({ title: 't', submit: 'Send' }))).toEqual({
      value: { title: 't' },
    });
    expect(loose.strict).toBe(false);
  });

  test('a missing required field is an issue at its path; an optional `?` field may be absent', () => {
    expect(issuesOf(sync(Upload['~standard'].validate({ title: 't' })))).toEqual([
      { path: ['file'], message: 'A file is required' },
    ]);
    expect(issuesOf(sync(Upload['~standard'].validate({ file: png() })))).toEqual([
      { path: ['title'], message: 'The field is required' },
    ]);
    expect(
      issuesOf(sync(Upload['~standard'].validate({ file: png(), title: 't', note: png() })))[0]?.path,
    ).toEqual(['note']);
  });

  test('a schema that accepts undefined makes its field optional (zod .optional(), defaults applied)', () => {
    const form = multipartObject({ a: z.string().optional(), b: z.string().default('dflt') });
    expect(sync(form['~standard'].validate({}))).toEqual({ value: { b: 'dflt' } });
  });

  test('an optional file field sent empty (no file selected) is absent', () => {
    const form = multipartObject({ avatar: fileField({ optional: true }), 'cover?': fileField() });
    expect(sync(form['~standard'].validate({ avatar: new File([], ''), cover: new File([], '') }))).toEqual({
      value: {},
    });
  });

  test('converts text where the field JSON Schema asks for a number, integer, boolean or array', () => {
    const form = multipartObject({
      count: type('number.integer'),
      ratio: z.number(),
      public: type('boolean'),
      tags: type('string[]'),
      ids: z.array(z.number()),
      code: type('string'),
    });
    const result = sync(
      form['~standard'].validate({
        count: '3',
        ratio: '0.5',
        public: 'true',
        tags: 'one',
        ids: ['1', '2'],
        code: '007',
      }),
    );
    expect(result).toEqual({
      value: { count: 3, ratio: 0.5, public: true, tags: ['one'], ids: [1, 2], code: '007' },
    });
    expect(
      issuesOf(
        sync(
          form['~standard'].validate({
            count: '1.5',
            ratio: 'x',
            public: 'yes',
            tags: [],
            ids: [],
            code: '',
          }),
        ),
      ).map((i) => i.path[0]),
    ).toEqual(['count', 'ratio', 'public']);
  });

  test('converts text for a schema without JSON Schema from its issues (valibot)', async () => {
    const form = multipartObject({ n: v.number(), flags: v.array(v.boolean()) });
    expect(await form['~standard'].validate({ n: '42', flags: 'true' })).toEqual({
      value: { n: 42, flags: [true] },
    });
    expect(issuesOf(await form['~standard'].validate({ n: 'abc', flags: 'true' }))[0]?.path).toEqual(['n']);
  });

  test('refuses a repeated field unless its schema takes an array', () => {
    const form = multipartObject({ title: type('string'), tags: type('string[]'), file: fileField() });
    expect(
      issuesOf(
        sync(form['~standard'].validate({ title: ['a', 'b'], tags: ['a', 'b'], file: [png(), png()] })),
      ),
    ).toEqual([
      { path: ['title'], message: 'The field was sent 2 times; it takes one value' },
      { path: ['file'], message: 'The field was sent 2 times; it takes one value' },
    ]);
  });

  test('validates asynchronously when a field does (magicBytes) and prefixes nested issue paths', async () => {
    const form = multipartObject({
      image: fileField({ magicBytes: [FILE_SIGNATURES.png] }),
      meta: z.object({}),
    });
    const pending = form['~standard'].validate({ image: new File(['GIF89a'], 'a.png'), meta: 'x' });
    expect(pending).toBeInstanceOf(Promise);
    expect(issuesOf(await pending)).toEqual([
      { path: ['image'], message: "The file's content does not match an accepted file format" },
      { path: ['meta'], message: expect.any(String) },
    ]);
    const nested = multipartObject({ list: z.array(z.number().int()) });
    expect(issuesOf(sync(nested['~standard'].validate({ list: ['1', '1.5'] })))[0]?.path).toEqual([
      'list',
      '1',
    ]);
  });

  test('takes a FormData too, repeated names as arrays', () => {
    const form = multipartObject({ tags: type('string[]'), file: fileField() });
    const data = new FormData();
    data.append('tags', 'a');
    data.append('tags', 'b');
    const file = png();
    data.append('file', file);
    const result = sync(form['~standard'].validate(data)) as { value: { tags: string[]; file: File } };
    expect(result.value.tags).toEqual(['a', 'b']);
    expect(result.value.file.name).toBe('a.png');
  });

  test('refuses a body that is not form fields', () => {
    for (const input of [undefined, 'text', [1], 42]) {
      expect(issuesOf(sync(Upload['~standard'].validate(input)))).toEqual([
        { path: [], message: 'Expected a multipart/form-data body (form fields)' },
      ]);
    }
  });

  test('refuses a bad shape or options when made', () => {
    expect(() => multipartObject(null as never)).toThrow('the shape must be an object');
    expect(() => multipartObject({ a: 'string' } as never)).toThrow('field "a" needs a Standard Schema');
    expect(() => multipartObject({ '?': type('string') })).toThrow('is not a field name');
    expect(() => multipartObject({ ['__proto__?']: type('string') })).toThrow('__proto__');
    expect(() => multipartObject({ a: type('string'), 'a?': type('string') })).toThrow('declared twice');
    expect(() => multipartObject({}, { strict: 'no' as never })).toThrow('strict must be a boolean');
  });

  test('describes itself as an object of the fields JSON Schemas with required and additionalProperties', () => {
    const form = multipartObject({
      avatar: fileField({ accept: ['image/png'] }),
      'caption?': type('string'),
      age: z.number().int(),
      extra: fileField({ optional: true }),
    });
    const json = form['~standard'].jsonSchema?.input({ target: 'draft-2020-12' });
    expect(json).toEqual({
      type: 'object',
      properties: {
        avatar: {
          type: 'string',
          format: 'binary',
          contentMediaType: 'image/png',
          description: 'A file (accepted: image/png)',
        },
        caption: { type: 'string' },
        age: expect.objectContaining({ type: 'integer' }),
        extra: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
      },
      required: ['avatar', 'age'],
      additionalProperties: false,
    });
    expect(JSON.stringify(json)).not.toContain('$schema');
    const loose = multipartObject({ a: type('string') }, { strict: false })['~standard'].jsonSchema?.output({
      target: 'draft-2020-12',
    });
    expect(loose).not.toHaveProperty('additionalProperties');
  });

  test('a field that cannot describe itself makes the JSON Schema throw, naming the field', () => {
    const form = multipartObject({ n: v.number() });
    expect(() => form['~standard'].jsonSchema?.input({ target: 'draft-2020-12' })).toThrow('field "n"');
  });

  test('isMultipartObjectSchema recognises multipartObject schemas only', () => {
    expect(isMultipartObjectSchema(Upload)).toBe(true);
    expect(isMultipartObjectSchema(fileField())).toBe(false);
    expect(isMultipartObjectSchema(type({ a: 'string' }))).toBe(false);
  });
});

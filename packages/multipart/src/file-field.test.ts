import { describe, expect, test } from 'bun:test';
import type { StandardResult } from '@charter/core';
import { fileField, isEmptyFilePart, isFileFieldSchema, resolveFileFieldOptions } from './file-field.ts';
import { FILE_SIGNATURES } from './magic-bytes.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const png = (name = 'a.png', type = 'image/png'): File => new File([PNG], name, { type });

function messages(result: StandardResult<unknown> | Promise<StandardResult<unknown>>): string[] {
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return (result.issues ?? []).map((issue) => issue.message);
}

async function settle(result: StandardResult<unknown> | Promise<StandardResult<unknown>>): Promise<string[]> {
  const settled = await result;
  return (settled.issues ?? []).map((issue) => issue.message);
}

describe('resolveFileFieldOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveFileFieldOptions();
    expect(resolved.maxBytes).toBeUndefined();
    expect(resolved.accept).toBeUndefined();
    expect(resolved.filename.maxLength).toBe(255);
    expect(resolved.magicBytes).toBeUndefined();
    expect(resolved.optional).toBe(false);
    expect(resolved.format).toBe('binary');
  });

  test('refuses bad options, naming them', () => {
    expect(() => resolveFileFieldOptions(null as never)).toThrow('the options must be an object');
    for (const maxBytes of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => resolveFileFieldOptions({ maxBytes })).toThrow(
        'fileField: maxBytes must be a positive safe integer',
      );
    }
    expect(() => resolveFileFieldOptions({ maxBytes: '10' as never })).toThrow(RangeError);
    expect(() => resolveFileFieldOptions({ optional: 'yes' as never })).toThrow('optional must be a boolean');
    expect(() => resolveFileFieldOptions({ format: 'base64' as never })).toThrow('format must be "binary"');
    expect(() => resolveFileFieldOptions({ accept: [] })).toThrow('accept');
    expect(() => resolveFileFieldOptions({ filename: { maxLength: 0 } })).toThrow('filename.maxLength');
    expect(() => resolveFileFieldOptions({ magicBytes: [] })).toThrow('magicBytes');
  });
});

describe('fileField', () => {
  test('accepts a File and returns it, synchronously without magicBytes', () => {
    const file = png();
    const result = fileField()['~standard'].validate(file);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ value: file });
  });

  test('refuses text, several values, non-files and a missing file', () => {
    const schema = fileField();
    expect(messages(schema['~standard'].validate('hello'))).toEqual(['Expected a file, got a text field']);
    expect(messages(schema['~standard'].validate([png(), png()]))).toEqual([
      'Expected one file, got 2 values',
    ]);
    expect(messages(schema['~standard'].validate({ name: 'a.png', size: 3 }))).toEqual(['Expected a file']);
    expect(messages(schema['~standard'].validate(undefined))).toEqual(['A file is required']);
    // What a browser sends for a file input with nothing selected (HTML §4.10.21.4).
    expect(messages(schema['~standard'].validate(new File([], '')))).toEqual(['A file is required']);
  });

  test('optional: an absent field or an empty unnamed file gives undefined', () => {
    const schema = fileField({ optional: true });
    expect(schema['~standard'].validate(undefined)).toEqual({ value: undefined });
    expect(schema['~standard'].validate(new File([], ''))).toEqual({ value: undefined });
    expect(messages(schema['~standard'].validate('text'))).toEqual(['Expected a file, got a text field']);
  });

  test('isEmptyFilePart is true only for an empty file without a name', () => {
    expect(isEmptyFilePart(new File([], ''))).toBe(true);
    expect(isEmptyFilePart(new File([], 'a.txt'))).toBe(false);
    expect(isEmptyFilePart(new File(['x'], ''))).toBe(false);
    expect(isEmptyFilePart('')).toBe(false);
  });

  test('maxBytes: a file of exactly maxBytes passes, one byte more is refused with both sizes', () => {
    const schema = fileField({ maxBytes: 12 });
    expect(messages(schema['~standard'].validate(png()))).toEqual([]);
    const big = new File([new Uint8Array(13)], 'big.bin');
    expect(messages(fileField({ maxBytes: 12 })['~standard'].validate(big))).toEqual([
      'The file is 13 bytes; at most 12 are accepted',
    ]);
  });

  test('accept: media types case-insensitively without parameters, and extensions', () => {
    const schema = fileField({ accept: ['image/png', 'image/jpeg'] });
    expect(messages(schema['~standard'].validate(png('a.png', 'IMAGE/PNG')))).toEqual([]);
    // The File constructor lower-cases; a parsed part may carry parameters.
    const withParams = new File(['x'], 'a.txt', { type: 'text/plain;charset=utf-8' });
    expect(messages(fileField({ accept: ['TEXT/plain'] })['~standard'].validate(withParams))).toEqual([]);
    expect(messages(schema['~standard'].validate(png('a.gif', 'image/gif')))).toEqual([
      'The file has a media type not accepted; accepted: image/png, image/jpeg',
    ]);
    const byExtension = fileField({ accept: ['.csv'] });
    expect(messages(byExtension['~standard'].validate(new File(['a,b'], 'Data.CSV')))).toEqual([]);
    expect(messages(byExtension['~standard'].validate(new File(['a,b'], 'data.exe')))).toEqual([
      'The file name does not end with an accepted extension: .csv',
    ]);
  });

  test('filename: refuses separators, dot names and control characters, and applies the rules', () => {
    const schema = fileField({ filename: { maxLength: 10, pattern: /^[a-z.]+$/ } });
    expect(messages(schema['~standard'].validate(png('ok.png')))).toEqual([]);
    expect(messages(schema['~standard'].validate(png('../x.png')))).toEqual([
      'The file name must not contain a path separator (/ or \\)',
    ]);
    expect(messages(schema['~standard'].validate(png('..')))).toEqual([
      'The file name must not be "." or ".."',
    ]);
    expect(messages(schema['~standard'].validate(png('a\u0000.png')))).toEqual([
      'The file name must not contain control characters',
    ]);
    expect(messages(schema['~standard'].validate(png('abcdefghijk')))).toEqual([
      'The file name is longer than 10 characters',
    ]);
    expect(messages(schema['~standard'].validate(png('A.png')))).toEqual([
      'The file name does not match the required pattern',
    ]);
    expect(messages(schema['~standard'].validate(new File(['x'], '')))).toEqual(['The file has no name']);
  });

  test('reports every problem that needs no bytes at once', () => {
    const schema = fileField({ maxBytes: 1, accept: ['text/plain'] });
    expect(messages(schema['~standard'].validate(png('a/b.png')))).toHaveLength(3);
  });

  test('magicBytes (list): the first bytes must match one signature; validation is then async', async () => {
    const schema = fileField({ magicBytes: [FILE_SIGNATURES.png, FILE_SIGNATURES.jpeg] });
    const ok = schema['~standard'].validate(png());
    expect(ok).toBeInstanceOf(Promise);
    expect(await settle(ok)).toEqual([]);
    const html = new File(['<html><script>'], 'a.png', { type: 'image/png' });
    expect(await settle(schema['~standard'].validate(html))).toEqual([
      "The file's content does not match an accepted file format",
    ]);
    expect(
      await settle(schema['~standard'].validate(new File([new Uint8Array([0x89])], 'short.png'))),
    ).toHaveLength(1);
  });

  test('magicBytes (by type): refuses a file whose declared type is not what its bytes say', async () => {
    const schema = fileField({
      accept: ['image/png', 'image/jpeg'],
      magicBytes: { 'image/png': [FILE_SIGNATURES.png], 'image/jpeg': [FILE_SIGNATURES.jpeg] },
    });
    expect(await settle(schema['~standard'].validate(png()))).toEqual([]);
    const jpegBytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
    expect(
      await settle(schema['~standard'].validate(new File([jpegBytes], 'a.jpg', { type: 'image/jpeg' }))),
    ).toEqual([]);
    // JPEG bytes declared as PNG: spoofed.
    expect(
      await settle(schema['~standard'].validate(new File([jpegBytes], 'a.png', { type: 'image/png' }))),
    ).toEqual(["The file's content does not match its declared media type image/png"]);
    const unlisted = fileField({ magicBytes: { 'image/png': [FILE_SIGNATURES.png] } });
    expect(
      await settle(unlisted['~standard'].validate(new File([PNG], 'a.gif', { type: 'image/gif' }))),
    ).toEqual(['The file has a media type whose content cannot be checked here (no signature for it)']);
  });

  test('magicBytes is not consulted when a cheaper check already failed', () => {
    const schema = fileField({ maxBytes: 1, magicBytes: [FILE_SIGNATURES.png] });
    expect(messages(schema['~standard'].validate(png()))).toEqual([
      'The file is 12 bytes; at most 1 are accepted',
    ]);
  });

  test('describes itself as a binary string, with the single accepted type as contentMediaType', () => {
    const one = fileField({ accept: ['image/png'], maxBytes: 100 })['~standard'].jsonSchema;
    expect(one?.input({ target: 'draft-2020-12' })).toEqual({
      type: 'string',
      format: 'binary',
      contentMediaType: 'image/png',
      description: 'A file (at most 100 bytes; accepted: image/png)',
    });
    expect(fileField()['~standard'].jsonSchema?.output({ target: 'draft-2020-12' })).toEqual({
      type: 'string',
      format: 'binary',
      contentMediaType: 'application/octet-stream',
    });
    const many = fileField({ accept: ['image/*', '.png'] })['~standard'].jsonSchema?.input({ target: 'x' });
    expect(many).toMatchObject({
      contentMediaType: 'application/octet-stream',
      description: 'A file (accepted: image/*, .png)',
    });
  });

  test('isFileFieldSchema recognises fileField schemas only', () => {
    expect(isFileFieldSchema(fileField())).toBe(true);
    expect(isFileFieldSchema({ '~standard': fileField()['~standard'] })).toBe(false);
    expect(isFileFieldSchema(null)).toBe(false);
    expect(fileField().fileField.optional).toBe(false);
  });
});

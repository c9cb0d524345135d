import { describe, expect, test } from 'bun:test';
import { isHttpError } from '@charter/core';
import { hasJsonRpcMediaType, readJsonRpcBody, unsupportedJsonRpcMediaType } from './http.ts';

describe('hasJsonRpcMediaType', () => {
  test('accepts a listed type with parameters and in any case', () => {
    expect(hasJsonRpcMediaType('application/json', ['application/json'])).toBe(true);
    expect(hasJsonRpcMediaType('Application/JSON; charset=utf-8', ['application/json'])).toBe(true);
    expect(hasJsonRpcMediaType('application/a2a+json', ['application/json', 'application/a2a+json'])).toBe(
      true,
    );
  });

  test('refuses a missing, other or prefix-only type', () => {
    expect(hasJsonRpcMediaType(null, ['application/json'])).toBe(false);
    expect(hasJsonRpcMediaType('text/plain', ['application/json'])).toBe(false);
    expect(hasJsonRpcMediaType('application/jsonx', ['application/json'])).toBe(false);
    expect(hasJsonRpcMediaType('application/a2a+json', ['application/json'])).toBe(false);
  });
});

describe('unsupportedJsonRpcMediaType', () => {
  test('is a 415 naming the type, quoted and cut at 100 characters', () => {
    const error = unsupportedJsonRpcMediaType(`text/${'x'.repeat(200)}`);
    expect(error.status).toBe(415);
    expect(error.detail).toContain('"text/xxx');
    expect(error.detail?.length).toBeLessThan(160);
    expect(unsupportedJsonRpcMediaType(null).detail).toBe(
      'A JSON-RPC request needs Content-Type: application/json',
    );
  });
});

describe('readJsonRpcBody', () => {
  const post = (body: string) => new Request('http://x/', { method: 'POST', body });

  test('returns the bytes of a body within the limit', async () => {
    const bytes = await readJsonRpcBody(post('{"a":1}'), 100);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(bytes as Uint8Array)).toBe('{"a":1}');
  });

  test('returns a 413 HttpError for a body over the limit, never throwing', async () => {
    const error = await readJsonRpcBody(post('x'.repeat(101)), 100);
    expect(isHttpError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(413);
  });
});

import { describe, expect, test } from 'bun:test';
import { type BodyContext, encodeBody } from './body.ts';

const post: BodyContext = {
  operationId: 'op',
  method: 'POST',
  accepted: ['application/json'],
  callerContentType: false,
};

describe('encodeBody', () => {
  test('sends nothing for undefined', () => {
    expect(encodeBody(undefined, post)).toEqual({ body: undefined, contentType: undefined, stream: false });
    expect(encodeBody(undefined, { ...post, method: 'GET' }).body).toBeUndefined();
  });

  test('encodes values as JSON, null and numbers included', () => {
    expect(encodeBody({ a: 1 }, post)).toEqual({
      body: '{"a":1}',
      contentType: 'application/json',
      stream: false,
    });
    expect(encodeBody(null, post).body).toBe('null');
    expect(encodeBody(0, post).body).toBe('0');
  });

  test('sends a string as text when the route accepts text/plain, as JSON otherwise, as is under a caller type', () => {
    expect(encodeBody('hi', post)).toEqual({ body: '"hi"', contentType: 'application/json', stream: false });
    expect(encodeBody('hi', { ...post, accepted: ['text/*'] }).contentType).toBe('text/plain;charset=UTF-8');
    expect(encodeBody('a,b', { ...post, callerContentType: true })).toEqual({
      body: 'a,b',
      contentType: undefined,
      stream: false,
    });
  });

  test('passes web bodies through and marks streams', () => {
    const form = new FormData();
    expect(encodeBody(form, post).body).toBe(form);
    const bytes = new Uint8Array([1]);
    expect(encodeBody(bytes, post).body).toBe(bytes);
    expect(encodeBody(new ReadableStream(), post).stream).toBe(true);
  });

  test('refuses a body on GET and HEAD, and values JSON cannot encode', () => {
    expect(() => encodeBody({}, { ...post, method: 'GET' })).toThrow('op: a GET request cannot carry a body');
    expect(() => encodeBody('', { ...post, method: 'HEAD' })).toThrow('a HEAD request cannot carry a body');
    expect(() => encodeBody(() => 1, post)).toThrow('cannot be encoded as JSON (got a function)');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeBody(cyclic, post)).toThrow('cannot be encoded as JSON');
  });
});

import { describe, expect, test } from 'bun:test';
import { jsonRpcRequestSchema, jsonRpcResponseSchema } from './openapi.ts';

describe('JSON-RPC OpenAPI schemas', () => {
  test('a request schema requires what the protocol asks for', () => {
    const schema = jsonRpcRequestSchema('A call', ['jsonrpc', 'method']);
    expect(schema.description).toBe('A call');
    expect(schema.required).toEqual(['jsonrpc', 'method']);
    expect(schema.properties.id).toEqual({ type: ['string', 'integer'] });
  });

  test('a request schema admits no empty method, which parseJsonRpcMessage refuses (-32600)', () => {
    const schema = jsonRpcRequestSchema('A call', ['jsonrpc', 'method']);
    expect(schema.properties.method).toEqual({ type: 'string', minLength: 1 });
  });

  test('a response schema admits a null id and carries the given error data schema', () => {
    const schema = jsonRpcResponseSchema('An answer', ['jsonrpc', 'id'], { type: 'array' });
    expect(schema.properties.id).toEqual({ type: ['string', 'integer', 'null'] });
    expect(schema.properties.error.properties.data).toEqual({ type: 'array' });
    expect(schema.required).toEqual(['jsonrpc', 'id']);
  });
});

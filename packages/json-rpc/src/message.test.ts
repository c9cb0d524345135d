import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { JSON_RPC_ERROR_CODES } from './codes.ts';
import { classifyMessage, isJsonRpcId, jsonRpcError, jsonRpcResult } from './message.ts';

const INVALID = JSON_RPC_ERROR_CODES.invalidRequest;

/** The error of an `invalid` classification, failing the test when it is not one. */
function invalidOf(value: unknown): { id: unknown; code: number; message: string } {
  const classified = classifyMessage(value);
  if (classified.kind !== 'invalid') throw new Error(`expected invalid, got ${classified.kind}`);
  return { id: classified.id, code: classified.error.code, message: classified.error.message };
}

describe('classifyMessage', () => {
  test('a message with an id and a method is a request, handed back as it is', () => {
    for (const params of [undefined, { a: 1 }, [1, 2], {}]) {
      const value = { jsonrpc: '2.0', id: 7, method: 'tools/list', ...(params && { params }) };
      const classified = classifyMessage(value);
      expect(classified.kind).toBe('request');
      if (classified.kind === 'request') expect(classified.message).toBe(value as never);
    }
  });

  test('string ids, zero and negative integer ids are request ids', () => {
    for (const id of ['abc', '', 0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(classifyMessage({ jsonrpc: '2.0', id, method: 'ping' }).kind).toBe('request');
    }
  });

  test('a message with a method and no id member is a notification', () => {
    const value = { jsonrpc: '2.0', method: 'notifications/initialized', params: { x: 1 } };
    const classified = classifyMessage(value);
    expect(classified).toEqual({ kind: 'notification', message: value as never });
  });

  test('a message with result or error and no method is a response, with its id', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 3, result: {} })).toEqual({ kind: 'response', id: 3 });
    expect(classifyMessage({ jsonrpc: '2.0', id: 'r', result: null })).toEqual({ kind: 'response', id: 'r' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 4, error: { code: -1, message: 'no' } })).toEqual({
      kind: 'response',
      id: 4,
    });
  });

  test('an error response with a null id (the client could not read ours) is a response (JSON-RPC 2.0 §5)', () => {
    // §5: "If there was an error in detecting the id in the Request object ... it MUST be Null."
    const value = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    expect(classifyMessage(value)).toEqual({ kind: 'response', id: null });
  });

  test('a value that is not an object is invalid with a null id', () => {
    for (const value of [null, undefined, [], [{ jsonrpc: '2.0', id: 1, method: 'x' }], 'x', 1, true]) {
      expect(invalidOf(value)).toEqual({
        id: null,
        code: INVALID,
        message: 'Invalid Request: a JSON-RPC message must be an object',
      });
    }
  });

  test('a jsonrpc member other than exactly "2.0" is invalid, echoing a usable id', () => {
    for (const jsonrpc of [undefined, '1.0', 2, '2', '2.0 ', null]) {
      const value = { ...(jsonrpc !== undefined && { jsonrpc }), id: 9, method: 'ping' };
      expect(invalidOf(value)).toEqual({
        id: 9,
        code: INVALID,
        message: 'Invalid Request: "jsonrpc" must be exactly "2.0"',
      });
    }
    expect(invalidOf({ jsonrpc: '1.0', id: 1.5, method: 'ping' }).id).toBeNull();
  });

  test('an id that is null, a fraction, a boolean, an object, an array or an unsafe integer is invalid with a null id', () => {
    const ids = [null, 1.5, -0.25, true, false, {}, { n: 1 }, [1], 2 ** 53, -(2 ** 53), Number.NaN, Infinity];
    for (const id of ids) {
      expect(invalidOf({ jsonrpc: '2.0', id, method: 'ping' })).toEqual({
        id: null,
        code: INVALID,
        message: 'Invalid Request: "id" must be a string or an integer (not null, a fraction or an object)',
      });
    }
  });

  test('a message with neither method, result nor error is invalid: "method" is missing', () => {
    expect(invalidOf({ jsonrpc: '2.0', id: 'q' })).toEqual({
      id: 'q',
      code: INVALID,
      message: 'Invalid Request: "method" is missing',
    });
    expect(invalidOf({ jsonrpc: '2.0' }).id).toBeNull();
  });

  test('a method that is not a string, or is empty, is invalid', () => {
    for (const method of [5, null, {}, [], '', true]) {
      expect(invalidOf({ jsonrpc: '2.0', id: 2, method })).toEqual({
        id: 2,
        code: INVALID,
        message: 'Invalid Request: "method" must be a non-empty string',
      });
    }
  });

  test('a method member wins over result: a request cannot pose as a response', () => {
    expect(invalidOf({ jsonrpc: '2.0', id: 1, method: 5, result: {} }).message).toContain('"method"');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping', result: {} }).kind).toBe('request');
  });

  test('scalar or null params are invalid; objects and arrays are structured values (JSON-RPC 2.0 §4.2)', () => {
    for (const params of ['x', 1, true, null]) {
      expect(invalidOf({ jsonrpc: '2.0', id: 5, method: 'm', params })).toEqual({
        id: 5,
        code: INVALID,
        message: 'Invalid Request: "params" must be an object or an array',
      });
      expect(invalidOf({ jsonrpc: '2.0', method: 'm', params }).id).toBeNull();
    }
  });

  test('only own members count: an id on the prototype is no id', () => {
    const value = Object.assign(Object.create({ id: 1 }), { jsonrpc: '2.0', method: 'm' });
    expect(classifyMessage(value).kind).toBe('notification');
  });

  test('never throws on any JSON value, and an invalid verdict always carries -32600', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const classified = classifyMessage(value);
        if (classified.kind === 'invalid') expect(classified.error.code).toBe(INVALID);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isJsonRpcId', () => {
  test('accepts strings and safe integers', () => {
    for (const id of ['', 'a', '1', 0, 42, -7, Number.MAX_SAFE_INTEGER]) expect(isJsonRpcId(id)).toBe(true);
  });

  test('refuses null, fractions, unsafe integers, non-finite numbers and non-scalars', () => {
    for (const id of [null, undefined, 0.5, 2 ** 53, Number.NaN, -Infinity, true, {}, [], 1n]) {
      expect(isJsonRpcId(id)).toBe(false);
    }
  });
});

describe('jsonRpcResult', () => {
  test('builds a success response with the id and the result as given', () => {
    const result = { tools: [] };
    const response = jsonRpcResult('x', result);
    expect(response).toEqual({ jsonrpc: '2.0', id: 'x', result });
    expect(response.result).toBe(result);
  });
});

describe('jsonRpcError', () => {
  test('leaves data out when it is undefined', () => {
    const response = jsonRpcError(1, -32601, 'Method not found');
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } });
    expect(Object.hasOwn(response.error, 'data')).toBe(false);
    expect(JSON.stringify(jsonRpcError(1, -1, 'm', undefined))).not.toContain('data');
  });

  test('keeps falsy data that is defined (null, 0, false, empty string)', () => {
    for (const data of [null, 0, false, '']) {
      expect(jsonRpcError(2, -32602, 'Invalid params', data).error).toEqual({
        code: -32602,
        message: 'Invalid params',
        data,
      });
    }
  });

  test('accepts a null id for errors about messages whose id could not be read', () => {
    expect(jsonRpcError(null, -32700, 'Parse error')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });
});

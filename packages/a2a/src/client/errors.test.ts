import { describe, expect, test } from 'bun:test';
import { A2A_CLIENT_ERROR_REASONS, A2aClientError, isA2aClientError } from './errors.ts';

describe('A2aClientError', () => {
  test('defaults code to 0 for a client-side refusal and keeps reason, status and cause', () => {
    const cause = new Error('boom');
    const error = new A2aClientError('refused', { reason: 'timeout', status: 504, cause });
    expect(error.code).toBe(0);
    expect(error.reason).toBe('timeout');
    expect(error.status).toBe(504);
    expect(error.cause).toBe(cause);
    expect(error.data).toBeUndefined();
    expect(error.name).toBe('A2aClientError');
  });

  test('carries the JSON-RPC code and data of an agent error', () => {
    const data = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }];
    const error = new A2aClientError('Task not found', { reason: 'rpc', code: -32001, data, status: 200 });
    expect(error.code).toBe(-32001);
    expect(error.data).toBe(data);
    expect(error.message).toBe('Task not found');
  });
});

describe('isA2aClientError', () => {
  test('recognises an instance and a look-alike from another copy of the library', () => {
    expect(isA2aClientError(new A2aClientError('x', { reason: 'network' }))).toBe(true);
    const foreign = Object.assign(new Error('x'), { name: 'A2aClientError', code: 0, reason: 'too-large' });
    expect(isA2aClientError(foreign)).toBe(true);
  });

  test('refuses other errors and errors with an unknown reason', () => {
    expect(isA2aClientError(new Error('x'))).toBe(false);
    expect(
      isA2aClientError(Object.assign(new Error('x'), { name: 'A2aClientError', code: 0, reason: 'nope' })),
    ).toBe(false);
    expect(isA2aClientError({ name: 'A2aClientError', code: 0, reason: 'rpc' })).toBe(false);
    expect(A2A_CLIENT_ERROR_REASONS).toContain('interface-not-allowed');
  });
});

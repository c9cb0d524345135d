import { describe, expect, test } from 'bun:test';
import { A2aRpcError } from './errors.ts';
import { normalizeReply, taskStateOf } from './reply.ts';

describe('normalizeReply', () => {
  test('a string or parts are a direct message', () => {
    expect(normalizeReply('hi')).toEqual({ kind: 'message', parts: [{ text: 'hi' }] });
    expect(normalizeReply([{ data: { a: 1 } }])).toEqual({ kind: 'message', parts: [{ data: { a: 1 } }] });
  });

  test('a { status } object is a task reply with its message and artifacts', () => {
    const reply = normalizeReply({
      status: 'input-required',
      message: 'Which?',
      artifacts: [{ parts: 'x', name: 'n' }],
      metadata: { k: 1 },
    });
    expect(reply).toMatchObject({
      kind: 'task',
      status: 'input-required',
      message: [{ text: 'Which?' }],
      artifacts: [{ parts: [{ text: 'x' }], name: 'n' }],
      metadata: { k: 1 },
    });
  });

  test('anything else is -32006 with the reason in cause', () => {
    for (const bad of [
      undefined,
      42,
      [],
      [{ kind: 'text' }],
      { status: 'done' },
      { status: 'completed', artifacts: [{}] },
      { status: 'completed', message: 5 },
    ]) {
      try {
        normalizeReply(bad);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(A2aRpcError);
        expect((error as A2aRpcError).code).toBe(-32006);
        expect(typeof (error as { cause?: unknown }).cause).toBe('string');
      }
    }
  });

  test('a reply is reduced to plain JSON: a Date becomes its string, a toJSON is applied', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(normalizeReply([{ data: { at } }])).toEqual({
      kind: 'message',
      parts: [{ data: { at: '2026-01-02T03:04:05.000Z' } }],
    });
  });

  test('a reply that is not JSON (BigInt, a cycle, a function member) is -32006, not a crash', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const bad of [
      [{ data: { n: 1n } }],
      [{ data: cycle }],
      [{ data: () => 1 }],
      { status: 'completed', metadata: { n: 1n } },
    ]) {
      try {
        normalizeReply(bad);
        throw new Error('accepted');
      } catch (error) {
        expect((error as A2aRpcError).code).toBe(-32006);
      }
    }
  });

  test('maps reply statuses onto TaskState names', () => {
    expect(taskStateOf('input-required')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(taskStateOf('auth-required')).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(taskStateOf('rejected')).toBe('TASK_STATE_REJECTED');
  });
});

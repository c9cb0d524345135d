import { describe, expect, test } from 'bun:test';
import { A2aRpcError } from './errors.ts';
import { a2aData, a2aText, messageText } from './parts.ts';
import { checkMessage, checkTimestamp, partProblem, paramsObject, Violations } from './validate.ts';

describe('partProblem', () => {
  test('accepts each 1.0 part kind', () => {
    expect(partProblem({ text: 'hi', mediaType: 'text/plain' })).toBeUndefined();
    expect(partProblem({ raw: 'aGk=', filename: 'a.txt' })).toBeUndefined();
    expect(partProblem({ raw: 'aGk_-w' })).toBeUndefined();
    expect(partProblem({ url: 'https://x.example/a.pdf' })).toBeUndefined();
    expect(partProblem({ data: null })).toBeUndefined();
  });

  test('refuses 0.3 parts, two contents, wrong types and bad base64', () => {
    expect(partProblem({ kind: 'text' })?.description).toContain('exactly one');
    expect(partProblem({ text: 'a', url: 'b' })?.description).toContain('exactly one');
    expect(partProblem({ text: 1 })?.field).toBe('.text');
    expect(partProblem({ raw: 'a$b' })?.field).toBe('.raw');
    expect(partProblem({ raw: 'a' })?.field).toBe('.raw');
    expect(partProblem({ text: 'a', mediaType: 1 })?.field).toBe('.mediaType');
    expect(partProblem({ text: 'a', metadata: [] })?.field).toBe('.metadata');
    expect(partProblem('x')?.description).toContain('object');
  });
});

describe('checkMessage', () => {
  test('accepts a user message and refuses an agent one, naming the field', () => {
    const v = new Violations();
    expect(checkMessage(v, 'message', { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] })).toBe(
      true,
    );
    expect(checkMessage(v, 'message', { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] })).toBe(
      false,
    );
    expect(v.list).toEqual([{ field: 'message.role', description: 'must be "ROLE_USER"' }]);
  });

  test('refuses ids longer than 256 characters and an empty part list', () => {
    const v = new Violations();
    checkMessage(v, 'm', { messageId: 'x'.repeat(257), role: 'ROLE_USER', parts: [], contextId: 5 });
    expect(v.list.map((x) => x.field)).toEqual(['m.messageId', 'm.parts', 'm.contextId']);
    expect(() => v.throwIfAny()).toThrow(A2aRpcError);
  });
});

describe('request helpers', () => {
  test('params must be an object', () => {
    expect(paramsObject(undefined)).toEqual({});
    expect(() => paramsObject([1])).toThrow(/params/);
  });

  test('timestamps must be RFC 3339', () => {
    const v = new Violations();
    expect(checkTimestamp(v, 't', '2026-01-02T03:04:05.678Z')).toBe(Date.parse('2026-01-02T03:04:05.678Z'));
    expect(checkTimestamp(v, 't', '2026-01-02T03:04:05+02:00')).toBe(Date.parse('2026-01-02T01:04:05Z'));
    expect(v.list).toHaveLength(0);
    expect(checkTimestamp(v, 't', '2026-01-02')).toBeUndefined();
    expect(checkTimestamp(v, 't', 1)).toBeUndefined();
    expect(v.list).toHaveLength(2);
  });
});

describe('part builders', () => {
  test('a2aText and a2aData build 1.0 parts', () => {
    expect(a2aText('hi')).toEqual({ text: 'hi' });
    expect(a2aText('# x', 'text/markdown')).toEqual({ text: '# x', mediaType: 'text/markdown' });
    expect(a2aData({ a: 1 }, 'application/json')).toEqual({ data: { a: 1 }, mediaType: 'application/json' });
    expect(messageText({ parts: [a2aText('a'), a2aData(1), a2aText('b')] })).toBe('a\nb');
  });

  test('refuse what is not text or JSON', () => {
    expect(() => a2aText(1 as never)).toThrow(TypeError);
    expect(() => a2aText('x', 1 as never)).toThrow(/mediaType/);
    expect(() => a2aData(undefined)).toThrow(TypeError);
    expect(() => a2aData(() => 1)).toThrow(TypeError);
  });
});

import { describe, expect, test } from 'bun:test';
import { toSendMessageRequest } from './message-input.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('toSendMessageRequest', () => {
  test('turns a string into a user message with one text part and a fresh UUID', () => {
    const a = toSendMessageRequest('hi');
    const b = toSendMessageRequest('hi');
    expect(a.message.role).toBe('ROLE_USER');
    expect(a.message.parts).toEqual([{ text: 'hi' }]);
    expect(a.message.messageId).toMatch(UUID);
    expect(a.message.messageId).not.toBe(b.message.messageId);
    expect(Object.keys(a)).toEqual(['message']);
  });

  test('takes a list of parts of every kind', () => {
    const parts = [
      { text: '# x', mediaType: 'text/markdown' },
      { data: { k: 1 } },
      { url: 'https://a.example/f.pdf' },
      { raw: 'aGk=' },
    ];
    expect(toSendMessageRequest(parts).message.parts).toEqual(parts);
  });

  test('takes a described message with ids, metadata, configuration and tenant', () => {
    const request = toSendMessageRequest({
      text: 'more',
      contextId: 'c1',
      taskId: 't1',
      referenceTaskIds: ['t0'],
      messageId: 'm1',
      metadata: { a: 1 },
      extensions: ['https://e.example/x'],
      configuration: { historyLength: 0, returnImmediately: true },
      requestMetadata: { trace: 'x' },
      tenant: 'acme',
    });
    expect(request).toEqual({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [{ text: 'more' }],
        contextId: 'c1',
        taskId: 't1',
        referenceTaskIds: ['t0'],
        extensions: ['https://e.example/x'],
        metadata: { a: 1 },
      },
      configuration: { historyLength: 0, returnImmediately: true },
      metadata: { trace: 'x' },
      tenant: 'acme',
    });
  });

  test('passes a wire SendMessageRequest through unchanged', () => {
    const wire = {
      message: { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'x' }] },
      metadata: { a: 1 },
    };
    expect(toSendMessageRequest(wire)).toBe(wire);
  });

  test('refuses input that can never be a valid message', () => {
    const bad: unknown[] = [
      [],
      [{}],
      [{ text: 'a', data: 1 }],
      [{ text: 5 }],
      [{ url: null }],
      {},
      { text: 'a', parts: [{ text: 'b' }] },
      { text: 1 },
      { text: 'a', contextId: 5 },
      { text: 'a', referenceTaskIds: 'x' },
      { text: 'a', metadata: [] },
      { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      { message: { messageId: 'm', parts: [{ text: 'x' }] } },
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } },
      null,
      42,
    ];
    for (const input of bad) expect(() => toSendMessageRequest(input as never)).toThrow(TypeError);
  });
});

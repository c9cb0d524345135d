import { describe, expect, test } from 'bun:test';
import { A2aClientError } from './errors.ts';
import {
  asListTasksResponse,
  asSendMessageResponse,
  asTask,
  assertAgentCard,
  selectJsonRpcInterface,
} from './validate.ts';

const card = () => ({
  name: 'a',
  description: 'd',
  version: '1',
  supportedInterfaces: [{ url: 'https://a.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'x', tags: ['t'] }],
});

const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' as const } };
const message = { messageId: 'm1', role: 'ROLE_AGENT' as const, parts: [{ text: 'hi' }] };

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof A2aClientError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('assertAgentCard', () => {
  test('accepts a minimal 1.0 card with extra unknown fields', () => {
    expect(reasonOf(() => assertAgentCard({ ...card(), futureField: 1 }))).toBeUndefined();
  });

  test('refuses a card missing any required member', () => {
    const breakers: ((c: Record<string, unknown>) => void)[] = [
      (c) => delete c.name,
      (c) => delete c.description,
      (c) => delete c.version,
      (c) => (c.supportedInterfaces = []),
      (c) => (c.supportedInterfaces = [{ url: 'x', protocolBinding: 'JSONRPC' }]),
      (c) =>
        (c.supportedInterfaces = [
          { url: 'x', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 3 },
        ]),
      (c) => delete c.capabilities,
      (c) => (c.defaultInputModes = 'text/plain'),
      (c) => (c.defaultOutputModes = [1]),
      (c) => delete c.skills,
      (c) => (c.skills = [{ id: 's', name: 'S', description: 'x' }]),
    ];
    for (const breaker of breakers) {
      const value: Record<string, unknown> = card();
      breaker(value);
      expect(reasonOf(() => assertAgentCard(value))).toBe('invalid-card');
    }
    expect(reasonOf(() => assertAgentCard('card'))).toBe('invalid-card');
  });
});

describe('selectJsonRpcInterface', () => {
  test('picks the first JSONRPC 1.0 entry in preference order', () => {
    const value = card();
    value.supportedInterfaces = [
      { url: 'https://a.example/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'https://a.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'https://a.example/one', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://a.example/two', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ];
    expect(selectJsonRpcInterface(value).url).toBe('https://a.example/one');
  });

  test('refuses a card with no JSONRPC 1.0 entry', () => {
    const value = card();
    value.supportedInterfaces = [
      { url: 'https://a.example/old', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ];
    expect(reasonOf(() => selectJsonRpcInterface(value))).toBe('invalid-card');
  });
});

describe('result shapes', () => {
  test('asSendMessageResponse takes exactly one of task and message', () => {
    expect(asSendMessageResponse({ task })).toEqual({ task });
    expect(asSendMessageResponse({ message })).toEqual({ message });
    for (const bad of [
      {},
      { task, message },
      { task: { id: 't' } },
      { message: { messageId: 'm' } },
      null,
      [],
    ]) {
      expect(reasonOf(() => asSendMessageResponse(bad))).toBe('invalid-response');
    }
  });

  test('asTask needs an id and a status.state', () => {
    expect(asTask('GetTask', task)).toBe(task);
    for (const bad of [{ id: '', status: { state: 'x' } }, { id: 't' }, { id: 't', status: {} }, 'task']) {
      expect(reasonOf(() => asTask('GetTask', bad))).toBe('invalid-response');
    }
  });

  test('asListTasksResponse fills ProtoJSON defaults and checks the tasks', () => {
    expect(asListTasksResponse({})).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
    expect(
      asListTasksResponse({ tasks: [task], nextPageToken: 'n', pageSize: 1, totalSize: 3 }).tasks,
    ).toEqual([task]);
    for (const bad of [
      { tasks: [{}] },
      { tasks: 'x' },
      { nextPageToken: 3 },
      { pageSize: 1.5 },
      { totalSize: '3' },
      null,
    ]) {
      expect(reasonOf(() => asListTasksResponse(bad))).toBe('invalid-response');
    }
  });
});

import { afterEach, describe, expect, test } from 'bun:test';
import { exposesInternalErrors, resolveA2aHandlerOptions } from './options.ts';
import { memoryTaskStore } from './task-store.ts';

const CARD = { name: 'a', description: 'b', url: 'https://agent.example/a2a', version: '1' };
const base = { card: CARD, onMessage: () => 'x' };
const env = process.env.NODE_ENV;

afterEach(() => {
  process.env.NODE_ENV = env;
});

describe('resolveA2aHandlerOptions', () => {
  test('fills the defaults', () => {
    const resolved = resolveA2aHandlerOptions(base);
    expect(resolved.maxBodyBytes).toBe(262144);
    expect(resolved.maxHistory).toBe(50);
    expect(resolved.cardMaxAgeSeconds).toBe(300);
    expect(resolved.agentTimeoutMs).toBe(300_000);
    expect(resolved.taskStore).toBeUndefined();
    expect(resolved.allowedOrigins.size).toBe(0);
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test('refuses each bad option by name', () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ onMessage: undefined }, /"onMessage"/],
      [{ taskStore: {} }, /"taskStore"/],
      [{ taskStore: memoryTaskStore() }, /"taskOwner" is required with a taskStore/],
      [{ taskOwner: () => 'x' }, /"taskOwner" has no effect/],
      [{ allowedOrigins: 'https://a.example' }, /"allowedOrigins"/],
      [{ allowedOrigins: ['https://a.example/'] }, /bare origin/],
      [{ allowedOrigins: ['nope'] }, /not an origin/],
      [{ maxBodyBytes: 0 }, /"maxBodyBytes"/],
      [{ maxHistory: 1.5 }, /"maxHistory"/],
      [{ cardMaxAgeSeconds: -1 }, /"cardMaxAgeSeconds"/],
      [{ agentTimeoutMs: -1 }, /"agentTimeoutMs"/],
      [{ agentTimeoutMs: 2 ** 31 }, /"agentTimeoutMs" must be an integer from 0 to 2147483647/],
      [{ exposeInternalErrors: 'yes' }, /"exposeInternalErrors"/],
      [{ headers: { 'bad header': 'x' } }, /"headers"/],
      [{ headers: { 'x-a': 1 } }, /"headers"/],
      [{ onError: 'log' }, /"onError"/],
    ];
    for (const [patch, message] of bad) {
      expect(() => resolveA2aHandlerOptions({ ...base, ...patch } as never)).toThrow(message);
    }
    expect(() => resolveA2aHandlerOptions(null as never)).toThrow(/options are required/);
  });

  test('accepts a task store with an owner, origins, headers and cardMaxAgeSeconds 0', () => {
    const resolved = resolveA2aHandlerOptions({
      ...base,
      taskStore: memoryTaskStore(),
      taskOwner: () => 'me',
      allowedOrigins: ['https://app.example'],
      headers: { 'x-agent': 'a' },
      cardMaxAgeSeconds: 0,
    });
    expect(resolved.allowedOrigins.has('https://app.example')).toBe(true);
    expect(resolved.headers).toEqual({ 'x-agent': 'a' });
    expect(resolved.cardMaxAgeSeconds).toBe(0);
  });
});

describe('exposesInternalErrors', () => {
  test('is forced off in a production App whatever the option says', () => {
    expect(
      exposesInternalErrors(resolveA2aHandlerOptions({ ...base, exposeInternalErrors: true }), true),
    ).toBe(false);
  });

  test('an explicit value wins outside production', () => {
    process.env.NODE_ENV = 'test';
    expect(
      exposesInternalErrors(resolveA2aHandlerOptions({ ...base, exposeInternalErrors: false }), false),
    ).toBe(false);
    process.env.NODE_ENV = 'production';
    expect(
      exposesInternalErrors(resolveA2aHandlerOptions({ ...base, exposeInternalErrors: true }), undefined),
    ).toBe(true);
  });

  test('by default, on only for NODE_ENV development or test', () => {
    const resolved = resolveA2aHandlerOptions(base);
    process.env.NODE_ENV = 'development';
    expect(exposesInternalErrors(resolved, undefined)).toBe(true);
    process.env.NODE_ENV = 'test';
    expect(exposesInternalErrors(resolved, false)).toBe(true);
    process.env.NODE_ENV = 'production';
    expect(exposesInternalErrors(resolved, undefined)).toBe(false);
    delete process.env.NODE_ENV;
    expect(exposesInternalErrors(resolved, undefined)).toBe(false);
  });
});

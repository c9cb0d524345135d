import { describe, expect, test } from 'bun:test';
import { resolveWsHandler, WS_DEFAULTS } from './options.ts';

describe('resolveWsHandler', () => {
  test('fills the spec defaults: 1 MiB payload and backpressure, 120 s idle', () => {
    const resolved = resolveWsHandler({});
    expect(resolved).toMatchObject({
      maxPayloadLength: 1048576,
      backpressureLimit: 1048576,
      idleTimeoutSeconds: 120,
    });
    expect(WS_DEFAULTS.maxPayloadLength).toBe(1048576);
    expect(resolved.allowedSubprotocols).toEqual([]);
    expect(resolved.allowsOrigin).toBeUndefined();
  });

  test('keeps valid values', () => {
    const resolved = resolveWsHandler({
      maxPayloadLength: 0,
      backpressureLimit: 1,
      idleTimeoutSeconds: 0,
      allowedSubprotocols: ['graphql-transport-ws'],
    });
    expect(resolved).toMatchObject({ maxPayloadLength: 0, backpressureLimit: 1, idleTimeoutSeconds: 0 });
  });

  test('refuses bad limits with a RangeError naming the option', () => {
    expect(() => resolveWsHandler({ maxPayloadLength: -1 })).toThrow(/maxPayloadLength/);
    expect(() => resolveWsHandler({ backpressureLimit: 0 })).toThrow(/backpressureLimit/);
    expect(() => resolveWsHandler({ idleTimeoutSeconds: 1.5 })).toThrow(RangeError);
  });

  test('refuses unknown fields, non-function phases and bad subprotocols or origins', () => {
    expect(() => resolveWsHandler({ mesage() {} } as never)).toThrow(/"mesage"/);
    expect(() => resolveWsHandler({ open: 'x' } as never)).toThrow(/"open" must be a function/);
    expect(() => resolveWsHandler({ beforeUpgrade: [1] } as never)).toThrow(/beforeUpgrade/);
    expect(() => resolveWsHandler({ allowedSubprotocols: ['a b'] })).toThrow(/token/);
    expect(() => resolveWsHandler({ allowedSubprotocols: ['a', 'a'] })).toThrow(/twice/);
    expect(() => resolveWsHandler({ origin: 'https://a.example/path' })).toThrow(/origin/);
    expect(() => resolveWsHandler({ origin: 42 } as never)).toThrow(/origin/);
  });

  test('origin lists compare serialised origins (default ports dropped, case folded)', async () => {
    const allows = resolveWsHandler({ origin: ['https://App.example:443', 'null'] }).allowsOrigin;
    const request = new Request('http://x.test/');
    expect(await allows?.('https://app.example', request)).toBe(true);
    expect(await allows?.('null', request)).toBe(true);
    expect(await allows?.('http://app.example', request)).toBe(false);
  });
});

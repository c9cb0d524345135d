import { describe, expect, test } from 'bun:test';
import { resolveServeOptions } from './serve-options.ts';

describe('charter/node serve options', () => {
  test('defaults: port 3000 on 127.0.0.1, signals on, 10 s shutdown, Node timeouts', () => {
    expect(resolveServeOptions({})).toEqual({
      port: 3000,
      hostname: '127.0.0.1',
      signals: true,
      shutdownTimeoutMs: 10_000,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 300_000,
      connectionsCheckingIntervalMs: 15_000,
    });
  });

  test('short timeouts are checked often enough to fire on time', () => {
    const settings = resolveServeOptions({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    expect(settings.connectionsCheckingIntervalMs).toBe(75);
    expect(
      resolveServeOptions({ requestTimeoutMs: 0, headersTimeoutMs: 0 }).connectionsCheckingIntervalMs,
    ).toBe(30_000);
    // A request timeout shorter than Node's 60 s headers default pulls the headers timeout down with it.
    expect(resolveServeOptions({ requestTimeoutMs: 5000 }).headersTimeoutMs).toBe(5000);
  });

  test('invalid options are refused with the option name', () => {
    expect(() => resolveServeOptions({ port: 70_000 })).toThrow('Invalid serve() option "port"');
    expect(() => resolveServeOptions({ port: 1.5 })).toThrow('"port"');
    expect(() => resolveServeOptions({ hostname: ' ' })).toThrow('"hostname"');
    expect(() => resolveServeOptions({ signals: 'yes' as unknown as boolean })).toThrow('"signals"');
    expect(() => resolveServeOptions({ shutdownTimeoutMs: -1 })).toThrow('"shutdownTimeoutMs"');
    expect(() => resolveServeOptions({ headersTimeoutMs: 10, requestTimeoutMs: 5 })).toThrow(
      '"headersTimeoutMs": must not exceed requestTimeoutMs (5), got 10',
    );
    expect(() => resolveServeOptions(null as unknown as object)).toThrow('"options"');
  });
});

import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { DENO_MAX_HEADER_FIELDS, serve } from './serve.ts';

// The adapter itself runs on Deno in tests/adapters/deno.test.ts; these are the checks made before
// Deno is touched, so they hold (and are cheap to run) on any runtime.
describe('charter/deno serve, before Deno is reached', () => {
  test('outside Deno the start fails, saying which adapter to use instead', async () => {
    const handle = serve(new App({ logger: false }), { signals: false });
    await expect(handle.ready).rejects.toThrow('charter/deno runs on Deno');
    expect(() => handle.port).toThrow('await serve(...) or handle.ready');
    await handle.close(); // a handle whose start failed closes without throwing
  });

  test('bad options are TypeErrors naming the option', async () => {
    for (const [options, name] of [
      [{ port: 70_000 }, 'port'],
      [{ port: Number.NaN }, 'port'],
      [{ hostname: 42 }, 'hostname'],
      [{ shutdownTimeoutMs: Number.POSITIVE_INFINITY }, 'shutdownTimeoutMs'],
      [{ signal: {} }, 'signal'],
    ] as const) {
      const ready = serve(new App({ logger: false }), { signals: false, ...(options as object) }).ready;
      await expect(ready).rejects.toThrow(new RegExp(`^serve\\(\\): ${name} must`));
    }
  });

  test('an App whose maxHeaderCount Deno cannot honour is a RangeError', async () => {
    const app = new App({ logger: false, maxHeaderCount: DENO_MAX_HEADER_FIELDS + 1 });
    const ready = serve(app, { signals: false }).ready;
    await expect(ready).rejects.toBeInstanceOf(RangeError);
    await expect(ready).rejects.toThrow('set maxHeaderCount to 128 or less');
  });
});

/**
 * Unknown option keys are refused where they are made (issue 19): in JavaScript,
 * `new App({ bodyLimit: 10 })` kept the 1 MiB default and `serve(app, { prot: 3020 })` listened on
 * 3000. `new App`, charter/bun's `serve` and charter/node's `serve` name the key and the closest known
 * option, as `jwk()` refuses its unknown keys.
 */
import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { serve } from '@charter/bun';
import { APP_OPTION_NAMES, AppOptionsError, App as CoreApp } from '@charter/core';
import { resolveServeOptions } from '../../packages/node/src/serve-options.ts';

function refusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('new App({...})', () => {
  test('a typo is refused with the option it was meant to be', () => {
    const error = refusal(() => new App({ bodyLimit: 10 } as never));
    expect(error).toBeInstanceOf(AppOptionsError);
    expect(error.message).toBe(
      'Invalid App option "bodyLimit": is not an option; did you mean "bodyLimitBytes"?',
    );
    expect(refusal(() => new App({ requestTimeout: 5 } as never)).message).toContain(
      'did you mean "requestTimeoutMs"?',
    );
    expect(refusal(() => new App({ loger: false } as never)).message).toContain('did you mean "logger"?');
    expect(refusal(() => new App({ OpenAPI: true } as never)).message).toContain('did you mean "openapi"?');
  });

  test('a key close to nothing lists the options', () => {
    const message = refusal(() => new App({ zzzzzzzz: 1 } as never)).message;
    expect(message).toStartWith('Invalid App option "zzzzzzzz": is not an option (known: ');
    expect(message).toContain('bodyLimitBytes');
    expect(message).toContain('openapi');
  });

  test('every documented option, openapi and docs included, is accepted', () => {
    const app = new App({
      bodyLimitBytes: 10,
      requestTimeoutMs: 1000,
      logger: false,
      openapi: true,
      docs: false,
      behindProxy: 'none',
    });
    expect(app.options.bodyLimitBytes).toBe(10);
    expect(App.optionNames).toEqual([...APP_OPTION_NAMES, 'openapi', 'docs']);
  });

  test('the core App knows only its own options', () => {
    expect(refusal(() => new CoreApp({ openapi: true } as never)).message).toContain(
      '"openapi": is not an option',
    );
    expect(new CoreApp({ bodyLimitBytes: 5, logger: false }).options.bodyLimitBytes).toBe(5);
  });

  test('a key with control characters or quotes is shown printable', () => {
    const message = refusal(() => new App({ 'a"\nb': 1 } as never)).message;
    expect(message).toStartWith('Invalid App option "a??b"');
  });
});

describe('serve(app, {...})', () => {
  test('charter/bun: a typo throws at the call, naming port; nothing listens', () => {
    const app = new App({ logger: false });
    const error = refusal(() => serve(app, { prot: 3020 } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('Invalid serve() option "prot": is not an option; did you mean "port"?');
  });

  test('charter/bun: the known options start a server', async () => {
    const server = await serve(new App({ logger: false }), {
      port: 0,
      hostname: '127.0.0.1',
      signals: false,
      shutdownTimeoutMs: 1000,
      nativeRoutes: true,
    });
    try {
      expect(server.port).toBeGreaterThan(0);
    } finally {
      await server.close(1000);
    }
  });

  test('charter/node: resolveServeOptions refuses a typo with a did-you-mean, accepts the known ones', () => {
    expect(refusal(() => resolveServeOptions({ prot: 3020 } as never)).message).toBe(
      'Invalid serve() option "prot": is not an option; did you mean "port"?',
    );
    expect(refusal(() => resolveServeOptions({ headersTimeout: 1 } as never)).message).toContain(
      'did you mean "headersTimeoutMs"?',
    );
    expect(resolveServeOptions({ port: 0, hostname: '::', signals: false }).port).toBe(0);
  });
});

import { afterEach, describe, expect, test } from 'bun:test';
import {
  App,
  AppOptionsError,
  createApp,
  DEFAULT_ALLOWED_CONTENT_TYPES,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_MAX_HEADER_COUNT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type AppOptions,
} from '@charter/core';
import { type } from 'arktype';
import { thrown } from './support/thrown.ts';

function expectOptionError(options: unknown, option: string): void {
  const error = thrown(() => new App(options as AppOptions));
  expect(error).toBeInstanceOf(AppOptionsError);
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).name).toBe('AppOptionsError');
  expect((error as Error).message).toContain(`"${option}"`);
}

const savedNodeEnv = process.env.NODE_ENV;
afterEach(() => {
  if (savedNodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = savedNodeEnv;
});

describe('new App() and createApp()', () => {
  test('createApp returns an App with the same resolved options as new App', () => {
    const options: AppOptions = { logger: false, bodyLimitBytes: 2048, requestTimeoutMs: 0, title: 'T' };
    const viaClass = new App(options);
    const viaFactory = createApp(options);
    expect(viaFactory).toBeInstanceOf(App);
    expect(viaFactory.options).toEqual(viaClass.options);
  });

  test('createApp() with no options resolves the same defaults as new App()', () => {
    expect(createApp().options).toEqual(new App().options);
  });

  test('createApp answers requests exactly like new App', async () => {
    const register = (app: App) =>
      app.get('/ping', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
        status: 200,
        body: { ok: true },
      }));
    const a = register(new App({ logger: false }) as App) as App;
    const b = register(createApp({ logger: false })) as App;
    for (const app of [a, b]) {
      const res = await app.request('/ping');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ ok: true });
    }
    const missA = await a.request('/nope');
    const missB = await b.request('/nope');
    expect(missA.status).toBe(missB.status);
    expect(await missA.json()).toEqual(await missB.json());
  });
});

describe('AppOptions defaults', () => {
  test('fills every documented default when no options are given', () => {
    process.env.NODE_ENV = 'test';
    const { options } = new App({ logger: false });
    expect(options.bodyLimitBytes).toBe(1024 * 1024);
    expect(options.bodyLimitBytes).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(options.requestTimeoutMs).toBe(30_000);
    expect(options.requestTimeoutMs).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(options.requestTimeoutStatus).toBe(408);
    expect(options.maxHeaderCount).toBe(100);
    expect(options.maxHeaderCount).toBe(DEFAULT_MAX_HEADER_COUNT);
    expect([...options.allowedContentTypes]).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect([...DEFAULT_ALLOWED_CONTENT_TYPES]).toEqual([...options.allowedContentTypes]);
    expect(options.validateResponses).toBe(true);
    expect(options.disconnectStatusCode).toBe(499);
    expect(options.production).toBe(false);
    expect(options.env).toBe('test');
  });

  test('keeps values that are given', () => {
    const { options } = new App({
      logger: false,
      bodyLimitBytes: 0,
      requestTimeoutMs: 0,
      requestTimeoutStatus: 504,
      maxHeaderCount: 0,
      allowedContentTypes: ['application/json'],
      validateResponses: false,
      production: true,
    });
    expect(options.bodyLimitBytes).toBe(0);
    expect(options.requestTimeoutMs).toBe(0);
    expect(options.requestTimeoutStatus).toBe(504);
    expect(options.maxHeaderCount).toBe(0);
    expect([...options.allowedContentTypes]).toEqual(['application/json']);
    expect(options.validateResponses).toBe(false);
    expect(options.production).toBe(true);
  });

  test('accepts 503 as requestTimeoutStatus', () => {
    expect(new App({ logger: false, requestTimeoutStatus: 503 }).options.requestTimeoutStatus).toBe(503);
  });

  test('resolved options are frozen', () => {
    const { options } = new App({ logger: false });
    expect(Object.isFrozen(options)).toBe(true);
  });

  test('production defaults to true when NODE_ENV is production', () => {
    process.env.NODE_ENV = 'production';
    const { options } = new App({ logger: false });
    expect(options.env).toBe('production');
    expect(options.production).toBe(true);
  });

  test('production defaults to false when NODE_ENV is development or unset', () => {
    process.env.NODE_ENV = 'development';
    expect(new App({ logger: false }).options.production).toBe(false);
    expect(new App({ logger: false }).options.env).toBe('development');
    delete process.env.NODE_ENV;
    expect(new App({ logger: false }).options.production).toBe(false);
    expect(new App({ logger: false }).options.env).toBe('development');
  });

  test('env production implies production even when NODE_ENV is not production', () => {
    process.env.NODE_ENV = 'development';
    const { options } = new App({ logger: false, env: 'production' });
    expect(options.env).toBe('production');
    expect(options.production).toBe(true);
  });

  test('env development with NODE_ENV production is not production', () => {
    process.env.NODE_ENV = 'production';
    const { options } = new App({ logger: false, env: 'development' });
    expect(options.env).toBe('development');
    expect(options.production).toBe(false);
  });

  test('production option wins over NODE_ENV', () => {
    process.env.NODE_ENV = 'development';
    expect(new App({ logger: false, production: true }).options.production).toBe(true);
  });
});

describe('AppOptions validation', () => {
  const badIntegers: [string, unknown][] = [
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['-1', -1],
    ['1.5', 1.5],
    ["'10'", '10'],
    ['null', null],
  ];

  for (const option of ['bodyLimitBytes', 'requestTimeoutMs', 'maxHeaderCount'] as const) {
    for (const [label, value] of badIntegers) {
      test(`throws AppOptionsError naming ${option} when it is ${label}`, () => {
        expectOptionError({ logger: false, [option]: value }, option);
      });
    }

    test(`accepts 0 and a large integer for ${option}`, () => {
      expect(new App({ logger: false, [option]: 0 }).options[option]).toBe(0);
      expect(new App({ logger: false, [option]: 1_000_000 }).options[option]).toBe(1_000_000);
    });
  }

  for (const value of [200, 400, 500, 502, 0, '408', null, Number.NaN]) {
    test(`throws AppOptionsError naming requestTimeoutStatus when it is ${String(value)}`, () => {
      expectOptionError({ logger: false, requestTimeoutStatus: value }, 'requestTimeoutStatus');
    });
  }

  test('the error message names the bad value', () => {
    const error = thrown(() => new App({ logger: false, bodyLimitBytes: -1 }));
    expect((error as Error).message).toContain('-1');
    const status = thrown(() => new App({ logger: false, requestTimeoutStatus: 500 as 408 }));
    expect((status as Error).message).toContain('500');
  });

  test('throws AppOptionsError naming allowedContentTypes for a non-media-type entry', () => {
    expectOptionError({ logger: false, allowedContentTypes: ['json'] }, 'allowedContentTypes');
    expectOptionError({ logger: false, allowedContentTypes: 'application/json' }, 'allowedContentTypes');
  });

  test('throws AppOptionsError naming validateResponses when it is not a boolean', () => {
    expectOptionError({ logger: false, validateResponses: 'yes' }, 'validateResponses');
  });

  test('throws AppOptionsError naming production when it is not a boolean', () => {
    expectOptionError({ logger: false, production: 1 }, 'production');
  });

  test('throws AppOptionsError naming env for an unknown environment', () => {
    expectOptionError({ logger: false, env: 'staging' }, 'env');
  });

  test('throws AppOptionsError naming the multipart limit', () => {
    expectOptionError({ logger: false, multipart: { maxFileBytes: -1 } }, 'multipart.maxFileBytes');
    expectOptionError({ logger: false, multipart: { maxFields: 1.5 } }, 'multipart.maxFields');
    expectOptionError({ logger: false, multipart: { maxFiles: Number.NaN } }, 'multipart.maxFiles');
  });

  test('createApp throws the same AppOptionsError as new App', () => {
    const error = thrown(() => createApp({ logger: false, maxHeaderCount: Number.NaN }));
    expect(error).toBeInstanceOf(AppOptionsError);
    expect((error as Error).message).toContain('"maxHeaderCount"');
  });
});

import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import {
  browsableUrl,
  printServeBanner,
  runtimeLabel,
  serveBannerOptions,
  shouldPrintServeBanner,
} from './serve-banner.ts';

describe('shouldPrintServeBanner', () => {
  test('true and false decide; otherwise a terminal outside tests', () => {
    expect(shouldPrintServeBanner(true, { env: { NODE_ENV: 'test' }, isTTY: false })).toBe(true);
    expect(shouldPrintServeBanner(false, { env: {}, isTTY: true })).toBe(false);
    expect(shouldPrintServeBanner(undefined, { env: {}, isTTY: true })).toBe(true);
    expect(shouldPrintServeBanner(undefined, { env: { NODE_ENV: 'production' }, isTTY: true })).toBe(true);
    expect(shouldPrintServeBanner(undefined, { env: {}, isTTY: false })).toBe(false);
    expect(shouldPrintServeBanner(undefined, { env: { NODE_ENV: 'test' }, isTTY: true })).toBe(false);
    expect(shouldPrintServeBanner('yes', { env: {}, isTTY: false })).toBe(false);
  });

  test('bun test runs with NODE_ENV=test and a piped stdout: no banner by default here', () => {
    expect(shouldPrintServeBanner(undefined)).toBe(false);
  });

  test('true and false never ask the terminal; only the default does (issue 18: start-up)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process');
    const real = globalThis.process;
    let asked = 0;
    Object.defineProperty(globalThis, 'process', {
      configurable: true,
      get() {
        asked++;
        return real;
      },
    });
    try {
      expect(shouldPrintServeBanner(false)).toBe(false);
      expect(shouldPrintServeBanner(true)).toBe(true);
      expect(asked).toBe(0);
      expect(shouldPrintServeBanner(undefined)).toBe(false);
      expect(asked).toBeGreaterThan(0);
    } finally {
      if (descriptor !== undefined) Object.defineProperty(globalThis, 'process', descriptor);
    }
    expect(globalThis.process).toBe(real);
  });
});

describe('serveBannerOptions', () => {
  test('an App with docs links its docs page and its OpenAPI document', () => {
    const app = new App({ title: 'Todos', version: '1.0.0', docs: { path: '/reference' }, logger: false });
    expect(serveBannerOptions(app, 'http://127.0.0.1:3000/')).toEqual({
      name: 'Todos',
      version: '1.0.0',
      url: 'http://127.0.0.1:3000/',
      runtime: runtimeLabel(),
      links: [
        { label: 'Docs', url: 'http://127.0.0.1:3000/reference' },
        { label: 'OpenAPI', url: 'http://127.0.0.1:3000/openapi.json' },
      ],
    });
  });

  test('openapi alone links the document; a bare App links nothing and is named app', () => {
    const spec = new App({ openapi: { path: '/spec.json' }, logger: false });
    expect(serveBannerOptions(spec, 'http://h:1').links).toEqual([
      { label: 'OpenAPI', url: 'http://h:1/spec.json' },
    ]);
    const bare = serveBannerOptions(new App({ logger: false }), 'http://h:1');
    expect(bare.links).toEqual([]);
    expect(bare.name).toBe('app');
    expect(bare.version).toBeUndefined();
  });

  test('a server on every interface is shown at localhost', () => {
    expect(browsableUrl('http://0.0.0.0:3000')).toBe('http://localhost:3000');
    expect(browsableUrl('http://[::]:8080')).toBe('http://localhost:8080');
    expect(browsableUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(browsableUrl('http://0.0.0.0.example:3000')).toBe('http://0.0.0.0.example:3000');
    const app = new App({ docs: true, logger: false });
    expect(serveBannerOptions(app, 'http://0.0.0.0:3000').links?.[0]).toEqual({
      label: 'Docs',
      url: 'http://localhost:3000/docs',
    });
  });

  test('runtimeLabel names this runtime', () => {
    expect(runtimeLabel()).toBe(`bun ${Bun.version}`);
  });
});

describe('printServeBanner', () => {
  test('never throws, whatever the app', () => {
    expect(() => printServeBanner(null as never, 'http://h:1', false)).not.toThrow();
    expect(() => printServeBanner({ options: null } as never, 'http://h:1', undefined)).not.toThrow();
  });
});

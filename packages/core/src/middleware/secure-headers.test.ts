import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import {
  applySecureHeaders,
  buildContentSecurityPolicy,
  resolveSecureHeaders,
  type SecureHeadersOptions,
  secureHeaders,
} from './secure-headers.ts';

const DEV = { production: false };
const PROD = { production: true };
const DEFAULT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function headersOf(options: SecureHeadersOptions | false | undefined, context = DEV): Record<string, string> {
  return Object.fromEntries(resolveSecureHeaders(options, context));
}

/** An app with secure headers only from the hook under test (the App's own set is turned off). */
function appWith(options?: SecureHeadersOptions, production = false): App {
  const app = new App({ logger: false, secureHeaders: false, hooks: secureHeaders(options, { production }) });
  app.get('/ok', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => ({
    status: 200,
    body: { ok: true },
  }));
  app.get('/boom', { responses: { 200: { body: type({ ok: 'boolean' }) } } }, () => {
    throw new Error('kaput');
  });
  app.get('/page', { responses: { 200: { body: type('string') } } }, () => ({
    status: 200,
    body: '<p>hi</p>',
    headers: { 'content-security-policy': "default-src 'self'", 'x-frame-options': 'SAMEORIGIN' },
  }));
  return app;
}

describe('resolveSecureHeaders', () => {
  test('gives the documented defaults outside production, without HSTS or COEP', () => {
    expect(headersOf(undefined)).toEqual({
      'content-security-policy': DEFAULT_CSP,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  });

  test('adds HSTS in production only', () => {
    expect(headersOf({}, PROD)['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headersOf({}, DEV)['strict-transport-security']).toBeUndefined();
    expect(
      headersOf({ strictTransportSecurity: { inDevelopment: true } }, DEV)['strict-transport-security'],
    ).toBe('max-age=31536000; includeSubDomains');
    expect(headersOf({ strictTransportSecurity: false }, PROD)['strict-transport-security']).toBeUndefined();
  });

  test('builds HSTS with preload and a custom max-age, and refuses a preload the list would reject', () => {
    expect(
      headersOf({ strictTransportSecurity: { preload: true, maxAgeSeconds: 63072000 } }, PROD)[
        'strict-transport-security'
      ],
    ).toBe('max-age=63072000; includeSubDomains; preload');
    expect(
      headersOf({ strictTransportSecurity: { includeSubDomains: false, maxAgeSeconds: 300 } }, PROD)[
        'strict-transport-security'
      ],
    ).toBe('max-age=300');
    expect(() =>
      headersOf({ strictTransportSecurity: { preload: true, includeSubDomains: false } }, PROD),
    ).toThrow(RangeError);
    expect(() => headersOf({ strictTransportSecurity: { preload: true, maxAgeSeconds: 60 } }, PROD)).toThrow(
      /preload/,
    );
    expect(() => headersOf({ strictTransportSecurity: { maxAgeSeconds: -1 } }, PROD)).toThrow(
      /maxAgeSeconds/,
    );
  });

  test('lets every header be changed or turned off', () => {
    const custom = headersOf({
      xFrameOptions: 'SAMEORIGIN',
      referrerPolicy: ['no-referrer', 'strict-origin-when-cross-origin'],
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginResourcePolicy: 'cross-origin',
      crossOriginEmbedderPolicy: 'require-corp',
      originAgentCluster: '?0',
      xDnsPrefetchControl: 'on',
      xPermittedCrossDomainPolicies: 'master-only',
    });
    expect(custom['x-frame-options']).toBe('SAMEORIGIN');
    expect(custom['referrer-policy']).toBe('no-referrer, strict-origin-when-cross-origin');
    expect(custom['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(custom['cross-origin-resource-policy']).toBe('cross-origin');
    expect(custom['cross-origin-embedder-policy']).toBe('require-corp');
    expect(custom['origin-agent-cluster']).toBe('?0');
    expect(custom['x-dns-prefetch-control']).toBe('on');
    expect(custom['x-permitted-cross-domain-policies']).toBe('master-only');
    const none = headersOf(
      {
        contentSecurityPolicy: false,
        xContentTypeOptions: false,
        xFrameOptions: false,
        referrerPolicy: false,
        crossOriginOpenerPolicy: false,
        crossOriginResourcePolicy: false,
        originAgentCluster: false,
        xDnsPrefetchControl: false,
        xPermittedCrossDomainPolicies: false,
        xXssProtection: false,
        strictTransportSecurity: false,
      },
      PROD,
    );
    expect(none).toEqual({});
  });

  test('false gives an empty list', () => {
    expect(resolveSecureHeaders(false, PROD)).toEqual([]);
  });

  test('refuses unknown options and values outside each header’s set, naming the option', () => {
    expect(() => headersOf({ frameOptions: 'DENY' } as never)).toThrow(/no option "frameOptions"/);
    expect(() => headersOf({ xFrameOptions: 'ALLOW-FROM x' as never })).toThrow(/"xFrameOptions"/);
    expect(() => headersOf({ referrerPolicy: 'sometimes' as never })).toThrow(/"referrerPolicy"/);
    expect(() => headersOf({ referrerPolicy: [] })).toThrow(/"referrerPolicy"/);
    expect(() => headersOf({ xXssProtection: '1; mode=block' as never })).toThrow(/"xXssProtection"/);
    expect(() => headersOf({ crossOriginResourcePolicy: 'same-origin\r\nx: y' as never })).toThrow(TypeError);
    expect(() => resolveSecureHeaders('strict' as never, DEV)).toThrow(TypeError);
  });
});

describe('buildContentSecurityPolicy', () => {
  test('merges a directives object onto the defaults, camelCase names included', () => {
    expect(buildContentSecurityPolicy({ imgSrc: ["'self'", 'data:'], 'frame-ancestors': "'self'" })).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; img-src 'self' data:",
    );
  });

  test('drops a directive set to false and writes a valueless one for true', () => {
    expect(buildContentSecurityPolicy({ formAction: false, upgradeInsecureRequests: true })).toBe(
      "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; upgrade-insecure-requests",
    );
  });

  test('uses a policy string verbatim', () => {
    expect(buildContentSecurityPolicy("default-src 'self'")).toBe("default-src 'self'");
  });

  test('refuses header injection and malformed directives', () => {
    expect(() => buildContentSecurityPolicy("default-src 'self'\r\nSet-Cookie: a=b")).toThrow(
      /contentSecurityPolicy/,
    );
    expect(() => buildContentSecurityPolicy('')).toThrow(TypeError);
    expect(() => buildContentSecurityPolicy({ scriptSrc: ["'self'; object-src *"] })).toThrow(
      /scriptSrc|script-src/,
    );
    expect(() => buildContentSecurityPolicy({ scriptSrc: ['a,b'] })).toThrow(TypeError);
    expect(() => buildContentSecurityPolicy({ 'script src': ["'self'"] })).toThrow(/directive name/);
    expect(() => buildContentSecurityPolicy({ scriptSrc: 42 as never })).toThrow(TypeError);
    expect(() =>
      buildContentSecurityPolicy({
        defaultSrc: false,
        baseUri: false,
        formAction: false,
        frameAncestors: false,
      }),
    ).toThrow(/no directives/);
  });
});

describe('applySecureHeaders', () => {
  const list = resolveSecureHeaders(undefined, DEV);

  test('adds each header the response lacks and keeps the ones it has', () => {
    const response = new Response('x', { headers: { 'x-frame-options': 'SAMEORIGIN' } });
    const out = applySecureHeaders(response, list);
    expect(out).toBe(response);
    expect(out.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(out.headers.get('content-security-policy')).toBe(DEFAULT_CSP);
  });

  test('copies a response whose headers are immutable', async () => {
    const response = new Response('body', { status: 202 });
    const frozen = new Headers(response.headers);
    for (const method of ['set', 'append', 'delete']) {
      Object.defineProperty(frozen, method, {
        value: () => {
          throw new TypeError('immutable');
        },
      });
    }
    Object.defineProperty(response, 'headers', { value: frozen });
    const out = applySecureHeaders(response, list);
    expect(out).not.toBe(response);
    expect(out.status).toBe(202);
    expect(out.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await out.text()).toBe('body');
  });
});

describe('secureHeaders hook', () => {
  test('puts the headers on 200, 404 and 500 responses', async () => {
    const app = appWith();
    const ok = await app.request('/ok');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    const missing = await app.request('/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const failed = await app.request('/boom');
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { type: string }).type).toBe('https://charter.dev/errors/internal');
    for (const response of [ok, missing, failed]) {
      expect(response.headers.get('content-security-policy')).toBe(DEFAULT_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  test('adds HSTS when its context is production', async () => {
    const response = await appWith({}, true).request('/ok');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  test('leaves headers a route set itself', async () => {
    const response = await appWith().request('/page');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('applies its options on a route', async () => {
    const app = new App({ logger: false, secureHeaders: false });
    app.get(
      '/framed',
      {
        hooks: secureHeaders({ xFrameOptions: 'SAMEORIGIN', contentSecurityPolicy: false }),
        responses: { 200: {} },
      },
      () => ({ status: 200 }),
    );
    const response = await app.request('/framed');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('content-security-policy')).toBeNull();
  });

  test('throws at creation for a bad option', () => {
    expect(() => secureHeaders({ xContentTypeOptions: 'sniff' as never })).toThrow(/"xContentTypeOptions"/);
  });
});

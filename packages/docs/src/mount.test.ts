import { describe, expect, test } from 'bun:test';
import { App } from '@charter/core';
import { DEFAULT_DOCS_ASSETS } from './assets.ts';
import { docsContentSecurityPolicy } from './csp.ts';
import { docsPage } from './docs-page.ts';
import { mountDocs } from './mount.ts';
import { scalarHtml } from './scalar.ts';

const NONCE = 'c3RhdGljLW5vbmNlLWZvci1wcm94eQ';

function newApp(): App {
  return new App({ logger: false });
}

describe('mountDocs', () => {
  test('answers GET /docs with the Scalar page, its CSP and the page headers', async () => {
    const app = newApp();
    expect(mountDocs(app)).toBe(app);
    const response = await app.request('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = docsPage('scalar', { specUrl: '/openapi.json' });
    expect(response.headers.get('content-security-policy')).toBe(docsContentSecurityPolicy(page.policy));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toBe(scalarHtml({ specUrl: '/openapi.json' }));
  });

  test('keeps the App default headers that do not stop the page from loading cross-origin assets', async () => {
    const app = newApp();
    mountDocs(app);
    const response = await app.request('/docs');
    // The route's CSP wins over the App's API default (default-src 'none' with no script-src).
    expect(response.headers.get('content-security-policy')).toContain(
      "script-src 'self' https://cdn.jsdelivr.net",
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // require-corp would block the CDN scripts (they carry no CORP header); the App does not send it.
    expect(response.headers.has('cross-origin-embedder-policy')).toBe(false);
  });

  test('answers HEAD with the headers and no body', async () => {
    const app = newApp();
    mountDocs(app, { ui: 'redoc' });
    const response = await app.request('/docs', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain('worker-src blob:');
    expect(await response.text()).toBe('');
  });

  test('registers the route as excluded from the OpenAPI document', () => {
    const app = newApp();
    mountDocs(app, { path: '/reference' });
    const route = app.registeredRoutes().find((r) => r.path === '/reference');
    expect(route?.method).toBe('GET');
    expect(route?.definition.openapi?.exclude).toBe(true);
    expect(route?.definition.acknowledgeNoResponseBodySchema).toBe(true);
    expect(route?.definition.responses).toEqual({
      200: { contentType: 'text/html', description: 'The docs page' },
    });
  });

  test('serves the chosen UI, path, title, spec URL and configuration', async () => {
    const app = newApp();
    mountDocs(app, {
      path: '/api-docs',
      ui: 'swagger-ui',
      specUrl: '/v2/openapi.json',
      title: 'Todo <API>',
      configuration: { docExpansion: 'none' },
    });
    expect((await app.request('/docs')).status).toBe(404);
    const body = await (await app.request('/api-docs')).text();
    expect(body).toContain('<title>Todo &lt;API&gt;</title>');
    expect(body).toContain('swagger-ui-dist@5.35.0/swagger-ui-bundle.js');
    expect(body).toContain('"docExpansion":"none"');
    expect(body).toContain('"url":"/v2/openapi.json"');
  });

  test('mounts under a group prefix', async () => {
    const app = newApp();
    app.group('/internal', {}, (group) => mountDocs(group));
    expect((await app.request('/internal/docs')).status).toBe(200);
  });

  test('lets the page fetch an absolute spec URL and the extra connect origins', async () => {
    const app = newApp();
    mountDocs(app, {
      specUrl: 'https://spec.example.com/openapi.json',
      connectOrigins: ['https://api.example.com'],
    });
    const policy = (await app.request('/docs')).headers.get('content-security-policy');
    expect(policy).toContain("connect-src 'self' https://spec.example.com https://api.example.com;");
  });

  test('uses self-hosted assets and their origins only', async () => {
    const integrity = DEFAULT_DOCS_ASSETS.scalar.script?.integrity ?? '';
    const app = newApp();
    mountDocs(app, { assets: { script: { url: 'https://static.example.com/scalar.js', integrity } } });
    const response = await app.request('/docs');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self' https://static.example.com 'sha256-");
    expect(policy).not.toContain('jsdelivr');
    expect(await response.text()).toContain(
      `<script src="https://static.example.com/scalar.js" integrity="${integrity}"`,
    );
  });

  test('asks a nonce function for a fresh nonce on every request', async () => {
    let count = 0;
    const app = newApp();
    mountDocs(app, { scriptNonce: () => `per-request-nonce-number-${++count}` });
    const first = await app.request('/docs');
    const second = await app.request('/docs');
    expect(first.headers.get('content-security-policy')).toContain("'nonce-per-request-nonce-number-1'");
    expect(second.headers.get('content-security-policy')).toContain("'nonce-per-request-nonce-number-2'");
    expect(second.headers.get('content-security-policy')).not.toContain("'sha256-");
    expect(await second.text()).toContain('<script nonce="per-request-nonce-number-2">');
  });

  test('uses a fixed nonce string as given', async () => {
    const app = newApp();
    mountDocs(app, { scriptNonce: NONCE });
    const response = await app.request('/docs');
    expect(response.headers.get('content-security-policy')).toContain(`'nonce-${NONCE}'`);
    expect(await response.text()).toContain(`<script nonce="${NONCE}">`);
  });

  test('answers 500 when the nonce function returns an unusable nonce', async () => {
    const app = newApp();
    mountDocs(app, { scriptNonce: () => "x' 'unsafe-inline" });
    const response = await app.request('/docs');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  test('refuses bad options at mount time, naming the option', () => {
    const cases: [unknown, string][] = [
      [{ paht: '/docs' }, 'mountDocs has no option "paht"'],
      [{ path: 'docs' }, 'mountDocs option "path" must be a path starting with "/"'],
      [{ path: '/docs/:ui' }, 'mountDocs option "path" must not contain route parameters'],
      [{ ui: 'rapidoc' }, 'mountDocs option ui must be "scalar", "swagger-ui" or "redoc"'],
      [{ specUrl: 'javascript:alert(1)' }, 'mountDocs option specUrl must be a path or an http(s) URL'],
      [{ title: 42 }, 'mountDocs option title must be a string'],
      [{ assets: { script: { url: '/s.js' } } }, 'mountDocs option assets.script.integrity is required'],
      [
        { ui: 'scalar', assets: { preset: { url: '/p.js', integrity: 'x' } } },
        'assets.preset is not an asset of scalar',
      ],
      [{ crossOrigin: 'none' }, 'mountDocs option crossOrigin must be'],
      [{ scriptNonce: 'short' }, 'mountDocs option scriptNonce must carry at least 128 bits'],
      [{ configuration: { url: '/x' } }, 'mountDocs option configuration.url is set by the page itself'],
      [
        { connectOrigins: ['https://a.example/x'] },
        'mountDocs option "connectOrigins[0]" must be a serialised origin',
      ],
      [{ connectOrigins: 'https://a.example' }, 'mountDocs option "connectOrigins" must be an array'],
    ];
    for (const [options, message] of cases) {
      expect(() => mountDocs(newApp(), options as never)).toThrow(message);
    }
    expect(() => mountDocs(newApp(), null as never)).toThrow('mountDocs options must be an object');
  });

  test('checks the other options at mount time even with a nonce function', () => {
    expect(() => mountDocs(newApp(), { scriptNonce: () => NONCE, specUrl: 'data:,x' })).toThrow(
      'mountDocs option specUrl',
    );
  });
});

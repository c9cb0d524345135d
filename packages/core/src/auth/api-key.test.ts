import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { hookTraitsOf } from '../types/index.ts';
import { trackedBody } from '../../../../tests/support/tracked-body.ts';
import { whoApp } from './__fixtures__/who-app.ts';
import { type ApiKeyOptions, apiKey, resolveApiKeyOptions } from './api-key.ts';

const STRONG = 'k_7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';

const appWith = (options: ApiKeyOptions): App => whoApp('/data', apiKey(options));

const verify = (key: string) => (key === STRONG ? { sub: 'svc' } : false);

const send = (app: App, path = '/data', headers: HeadersInit = {}) =>
  app.request(path, { method: 'POST', headers });

async function expectProblem(res: Response, status: number, detail: RegExp): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const text = await res.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.status).toBe(status);
  expect(String(body.detail)).toMatch(detail);
  return text;
}

describe('apiKey in a header', () => {
  const app = appWith({ in: 'header', name: 'X-API-Key', verify });

  test('a valid key authenticates; the header name is matched case-insensitively', async () => {
    const res = await send(app, '/data', { 'x-api-key': STRONG });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'svc', credentials: STRONG, scheme: 'apiKey' });
  });

  test('a missing or empty key is a 401 whose challenge names where the key goes', async () => {
    for (const headers of [{}, { 'x-api-key': '' }] as Record<string, string>[]) {
      const res = await send(app, '/data', headers);
      await expectProblem(res, 401, /An API key is required in the header "x-api-key"/);
      expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="api", in="header", name="x-api-key"');
    }
  });

  test('a wrong key is a 401 that does not echo the key', async () => {
    const res = await send(app, '/data', { 'x-api-key': 'k_wrong-key-value' });
    const text = await expectProblem(res, 401, /invalid/);
    expect(text).not.toContain('k_wrong-key-value');
  });

  test('an unauthenticated upload is refused before its body stream is pulled', async () => {
    const { body, pulled } = trackedBody('{}');
    const res = await app.request('/data', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(pulled()).toBe(false);
  });

  test('a key longer than maxKeyLength is refused without calling verify', async () => {
    let calls = 0;
    const short = appWith({
      in: 'header',
      name: 'x-key',
      maxKeyLength: 4,
      verify: () => {
        calls++;
        return true;
      },
    });
    expect((await send(short, '/data', { 'x-key': 'abcd' })).status).toBe(200);
    await expectProblem(await send(short, '/data', { 'x-key': 'abcde' }), 401, /invalid/);
    expect(calls).toBe(1);
  });
});

describe('apiKey in the query string', () => {
  const app = appWith({ in: 'query', name: 'api_key', verify });

  test('a valid key authenticates', async () => {
    const res = await send(app, `/data?api_key=${STRONG}&x=1`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sub: string }).sub).toBe('svc');
  });

  test('a key given twice is a 400 (which one counts would be a guess)', async () => {
    await expectProblem(await send(app, `/data?api_key=${STRONG}&api_key=other`), 400, /once, not 2 times/);
  });

  test('a missing key is a 401', async () => {
    const res = await send(app, '/data?other=1');
    await expectProblem(res, 401, /query "api_key"/);
    expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="api", in="query", name="api_key"');
  });

  test('a parameter named like an Object.prototype member is never read from the prototype', async () => {
    let seen: unknown = 'not called';
    const proto = appWith({
      in: 'query',
      name: 'constructor',
      verify: (key) => {
        seen = key;
        return true;
      },
    });
    await expectProblem(await send(proto, '/data'), 401, /required/);
    expect(seen).toBe('not called');
  });
});

describe('apiKey in a cookie', () => {
  const app = appWith({ in: 'cookie', name: 'api_key', verify });

  test('a valid key authenticates, among other cookies', async () => {
    const res = await send(app, '/data', { cookie: `theme=dark; api_key=${STRONG}` });
    expect(res.status).toBe(200);
  });

  test('a percent-encoded cookie value is decoded before verify sees it', async () => {
    const seen: string[] = [];
    const decoding = appWith({ in: 'cookie', name: 'k', verify: (key) => seen.push(key) > 0 });
    expect((await send(decoding, '/data', { cookie: 'k=a%20b' })).status).toBe(200);
    expect(seen).toEqual(['a b']);
  });

  test('the cookie given twice is a 400, a missing one a 401', async () => {
    await expectProblem(await send(app, '/data', { cookie: `api_key=${STRONG}; api_key=x` }), 400, /once/);
    await expectProblem(await send(app, '/data', { cookie: 'theme=dark' }), 401, /cookie "api_key"/);
  });
});

describe('apiKey with a keys table', () => {
  const app = appWith({ in: 'header', name: 'x-api-key', keys: { billing: STRONG, reports: `${STRONG}-2` } });

  test('each key authenticates as its label', async () => {
    const first = await send(app, '/data', { 'x-api-key': STRONG });
    expect(((await first.json()) as { sub: string }).sub).toBe('billing');
    const second = await send(app, '/data', { 'x-api-key': `${STRONG}-2` });
    expect(((await second.json()) as { sub: string }).sub).toBe('reports');
    await expectProblem(await send(app, '/data', { 'x-api-key': `${STRONG}-3` }), 401, /invalid/);
  });

  test('declares the keys as secrets, so the boot guards report a weak one', () => {
    const hooks = apiKey({ in: 'header', name: 'x-k', keys: { svc: 'short' } });
    expect(hookTraitsOf(hooks)).toEqual({
      authenticates: true,
      secrets: [{ where: 'apiKey option "keys.svc"', value: 'short' }],
    });
    const weak = new App({ logger: false, behindProxy: 'none' });
    weak.get('/x', { responses: { 200: { body: type({ ok: 'boolean' }) } }, hooks }, () => ({
      status: 200,
      body: { ok: true },
    }));
    expect(weak.assertSecureConfig()).toEqual([
      expect.objectContaining({ code: 'weak-secret', route: 'GET /x' }),
    ]);
  });
});

describe('resolveApiKeyOptions', () => {
  test('fills defaults and lower-cases a header name', () => {
    const resolved = resolveApiKeyOptions({ in: 'header', name: 'X-Key', verify });
    expect(resolved).toMatchObject({
      in: 'header',
      name: 'x-key',
      realm: 'api',
      maxKeyLength: 4096,
      secrets: [],
    });
    expect(hookTraitsOf(apiKey({ in: 'query', name: 'k', verify }))).toEqual({ authenticates: true });
  });

  test('refuses a bad location or a name invalid for its location', () => {
    expect(() => resolveApiKeyOptions({ in: 'body' as never, name: 'k', verify })).toThrow(/"in"/);
    expect(() => resolveApiKeyOptions({ in: 'header', name: '', verify })).toThrow(/"name"/);
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'x key', verify })).toThrow(
      /"name" must be an HTTP token/,
    );
    expect(() => resolveApiKeyOptions({ in: 'cookie', name: 'a;b', verify })).toThrow(/"name"/);
    expect(() => resolveApiKeyOptions({ in: 'query', name: 'a&b', verify })).toThrow(/"name"/);
    expect(() => resolveApiKeyOptions({ in: 'query', name: 'a%20b', verify })).toThrow(/"name"/);
    expect(resolveApiKeyOptions({ in: 'query', name: 'api-key.v2_~', verify }).name).toBe('api-key.v2_~');
  });

  test('needs exactly one of verify and keys, and usable keys', () => {
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'k' })).toThrow(/exactly one/);
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'k', verify, keys: { a: STRONG } })).toThrow(
      /exactly one/,
    );
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'k', keys: {} })).toThrow(/"keys"/);
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'k', keys: { a: '' } })).toThrow(/"keys"/);
    expect(() => resolveApiKeyOptions({ in: 'header', name: 'k', maxKeyLength: -1, verify })).toThrow(
      RangeError,
    );
  });
});

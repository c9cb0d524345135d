import { describe, expect, test } from 'bun:test';
import { App } from '../app/index.ts';
import { UnauthorizedError } from '../errors/index.ts';
import { isValidWsKey, wsAcceptKey } from './handshake.ts';
import type { WsHandler } from './types.ts';

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const HANDSHAKE = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-version': '13',
  'sec-websocket-key': KEY,
};

function appWith(handler: WsHandler<'/chat/:room'> = {}): App {
  const app = new App({ logger: false });
  app.ws('/chat/:room', handler);
  return app;
}

async function problem(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

describe('the WebSocket upgrade decision', () => {
  test('the accept key is the RFC 6455 §1.3 example; keys must be base64 of 16 bytes', async () => {
    expect(await wsAcceptKey(KEY)).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(isValidWsKey(KEY)).toBe(true);
    for (const bad of [null, '', 'abc', `${KEY}x`, 'dGhlIHNhbXBsZSBub25jZR==', `${KEY}, ${KEY}`])
      expect(isValidWsKey(bad)).toBe(false);
  });

  test('a valid handshake is accepted: 200 in-process with the handshake headers', async () => {
    const response = await appWith().request('/chat/a', { headers: HANDSHAKE });
    expect(response.status).toBe(200);
    expect(response.headers.get('sec-websocket-accept')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(response.headers.get('sec-websocket-protocol')).toBeNull();
    expect(await response.text()).toBe('');
  });

  test('a plain GET gets 426 with Upgrade: websocket (RFC 9110 §15.5.22)', async () => {
    const response = await appWith().request('/chat/a');
    const body = await problem(response, 426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(body).toMatchObject({ title: 'Upgrade Required', status: 426 });
  });

  test('a version other than 13, or none, gets 426 with Sec-WebSocket-Version: 13 (RFC 6455 §4.4)', async () => {
    for (const version of ['8', undefined]) {
      const headers: Record<string, string> = { ...HANDSHAKE };
      if (version === undefined) delete headers['sec-websocket-version'];
      else headers['sec-websocket-version'] = version;
      const response = await appWith().request('/chat/a', { headers });
      await problem(response, 426);
      expect(response.headers.get('sec-websocket-version')).toBe('13');
    }
  });

  test('a missing or malformed key gets 400', async () => {
    for (const key of [undefined, 'short']) {
      const headers: Record<string, string> = { ...HANDSHAKE };
      if (key === undefined) delete headers['sec-websocket-key'];
      else headers['sec-websocket-key'] = key;
      const body = await problem(await appWith().request('/chat/a', { headers }), 400);
      expect(String(body.detail)).toContain('Sec-WebSocket-Key');
    }
  });

  test('a foreign browser Origin gets 403; the own origin and no Origin pass', async () => {
    const app = appWith();
    const body = await problem(
      await app.request('/chat/a', { headers: { ...HANDSHAKE, origin: 'https://evil.example' } }),
      403,
    );
    expect(body.type).toBe('https://charter.dev/errors/forbidden');
    expect(
      (await app.request('/chat/a', { headers: { ...HANDSHAKE, origin: 'https://charter.local' } })).status,
    ).toBe(200);
    expect((await app.request('/chat/a', { headers: { ...HANDSHAKE, origin: 'null' } })).status).toBe(403);
  });

  test('the origin option admits listed origins, a predicate, or any origin with "*"', async () => {
    const headers = { ...HANDSHAKE, origin: 'https://app.example' };
    expect((await appWith({ origin: 'https://app.example' }).request('/chat/a', { headers })).status).toBe(
      200,
    );
    expect(
      (await appWith({ origin: ['https://other.example'] }).request('/chat/a', { headers })).status,
    ).toBe(403);
    expect(
      (await appWith({ origin: (o) => o.endsWith('.example') }).request('/chat/a', { headers })).status,
    ).toBe(200);
    expect((await appWith({ origin: '*' }).request('/chat/a', { headers })).status).toBe(200);
  });

  test('the subprotocol is the first allowed one the client offers; none acceptable gets 400', async () => {
    const app = appWith({ allowedSubprotocols: ['v2', 'v1'] });
    const chosen = await app.request('/chat/a', {
      headers: { ...HANDSHAKE, 'sec-websocket-protocol': 'v1, v2' },
    });
    expect(chosen.headers.get('sec-websocket-protocol')).toBe('v2');
    const none = await app.request('/chat/a', { headers: { ...HANDSHAKE, 'sec-websocket-protocol': 'v3' } });
    expect(String((await problem(none, 400)).detail)).toContain('v2, v1');
    const offeredToPlain = await appWith().request('/chat/a', {
      headers: { ...HANDSHAKE, 'sec-websocket-protocol': 'v1' },
    });
    await problem(offeredToPlain, 400);
    expect(
      (await app.request('/chat/a', { headers: HANDSHAKE })).headers.get('sec-websocket-protocol'),
    ).toBeNull();
  });

  test('beforeUpgrade may refuse with a Response or an HttpError, and sees the typed params', async () => {
    const seen: string[] = [];
    const app = appWith({
      beforeUpgrade: [
        (ctx) => {
          seen.push(ctx.params.room);
        },
        (ctx) => (ctx.params.room === 'closed' ? new Response('no', { status: 409 }) : undefined),
        (ctx) => {
          if (ctx.params.room === 'secret') throw new UnauthorizedError('Sign in first');
        },
      ],
    });
    expect((await app.request('/chat/closed', { headers: HANDSHAKE })).status).toBe(409);
    const denied = await app.request('/chat/secret', { headers: HANDSHAKE });
    await problem(denied, 401);
    expect(denied.headers.get('www-authenticate')).toContain('Bearer');
    expect((await app.request('/chat/open', { headers: HANDSHAKE })).status).toBe(200);
    expect(seen).toEqual(['closed', 'secret', 'open']);
  });

  test('app.use hooks run first: a preBody guard refuses the upgrade with 401', async () => {
    const app = appWith();
    app.use({
      preBody: (ctx) => {
        if (ctx.headers.authorization !== 'Bearer ok') throw new UnauthorizedError();
      },
    });
    await problem(await app.request('/chat/a', { headers: HANDSHAKE }), 401);
    expect(
      (await app.request('/chat/a', { headers: { ...HANDSHAKE, authorization: 'Bearer ok' } })).status,
    ).toBe(200);
  });

  test('the header-count guard answers 431 before the handshake is looked at', async () => {
    const app = new App({ logger: false, maxHeaderCount: 5 });
    app.ws('/ws', {});
    await problem(await app.request('/ws', { headers: { ...HANDSHAKE, a: '1', b: '2' } }), 431);
  });

  test('HEAD and POST on a WebSocket path get 405 with Allow: GET', async () => {
    const response = await appWith().request('/chat/a', { method: 'POST', headers: HANDSHAKE });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('app.ws registration', () => {
  test('a WebSocket route and an HTTP GET on the same path conflict, in either order', () => {
    const first = new App({ logger: false });
    first.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
    expect(() => first.ws('/x', {})).toThrow(/already an HTTP route/);
    const second = new App({ logger: false });
    second.ws('/x', {});
    expect(() => second.get('/x', { responses: { 200: {} } }, () => ({ status: 200 }))).toThrow(/conflict/i);
    second.post('/x', { responses: { 200: {} } }, () => ({ status: 200 }));
  });

  test('introspect lists WebSocket routes in registration order with meta.websocket; registeredRoutes does not', () => {
    const app = new App({ logger: false });
    app.get('/a', { responses: { 200: {} } }, () => ({ status: 200 }));
    app.ws('/ws', { allowedSubprotocols: ['v1'] });
    app.get('/b', { responses: { 200: {} } }, () => ({ status: 200 }));
    expect(app.introspect().map((r) => r.path)).toEqual(['/a', '/ws', '/b']);
    expect(app.introspect()[1]).toMatchObject({
      method: 'GET',
      meta: { websocket: true, subprotocols: ['v1'] },
    });
    expect(app.registeredRoutes().map((r) => r.path)).toEqual(['/a', '/b']);
    expect(app.wsRoutes().map((r) => r.path)).toEqual(['/ws']);
  });

  test('a path that does not start with "/" is refused', () => {
    expect(() => new App({ logger: false }).ws('ws' as '/ws', {})).toThrow(TypeError);
  });
});

import { afterEach, describe, expect, test } from 'bun:test';
import { App, type AppOptions, bearer, InsecureConfigError } from '@charter/core';
import { createA2aHandler } from './handler.ts';
import { type A2aRoutesOptions, a2aRoutes } from './routes.ts';

const CARD = { name: 'a', description: 'b', url: 'https://agent.example/a2a', version: '1' };
const env = process.env.NODE_ENV;

afterEach(() => {
  process.env.NODE_ENV = env;
});

function appWith(options: A2aRoutesOptions = {}, appOptions: AppOptions = {}, url = CARD.url): App {
  const app = new App({ logger: false, ...appOptions });
  const agent = createA2aHandler({ card: { ...CARD, url }, onMessage: (ctx) => `echo: ${ctx.text}` });
  app.registerRoutes(a2aRoutes('/a2a', agent, options));
  return app;
}

const auth = () => bearer({ verify: (token) => (token === 'good' ? { sub: 'u' } : false) });

function send(app: App, headers: Record<string, string> = {}): Promise<Response> {
  return app.request('/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
  });
}

async function bootError(app: App): Promise<unknown> {
  return app.ready().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe('a2aRoutes', () => {
  test('serves the card at the well-known path and JSON-RPC at the path', async () => {
    const app = appWith({ public: true });
    const card = await app.request('/.well-known/agent-card.json');
    expect(card.status).toBe(200);
    expect(((await card.json()) as { name: string }).name).toBe('a');
    const head = await app.request('/.well-known/agent-card.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(card.headers.get('etag'));
    expect(await head.text()).toBe('');
    const rpc = await send(app);
    expect(rpc.status).toBe(200);
    expect(((await rpc.json()) as { result: { message: unknown } }).result.message).toBeDefined();
    expect((await app.request('/a2a', { method: 'OPTIONS' })).status).toBe(204);
  });

  test('option hooks takes a Hooks object or a list, and refuses anything else when the routes are built', () => {
    const agent = createA2aHandler({ card: CARD, onMessage: () => 'x' });
    expect(a2aRoutes('/a2a', agent, { hooks: auth() })[0]?.hooks).toHaveLength(2);
    expect(a2aRoutes('/a2a', agent, { hooks: [auth(), auth()] })[0]?.hooks).toHaveLength(3);
    expect(() => a2aRoutes('/a2a', agent, { hooks: { preBdy: () => {} } as never })).toThrow(
      'a2aRoutes option "hooks": unknown hook "preBdy"',
    );
  });

  test('cardPath moves the card, and false serves none', async () => {
    const moved = appWith({ public: true, cardPath: '/agent.json' });
    expect((await moved.request('/agent.json')).status).toBe(200);
    expect((await moved.request('/.well-known/agent-card.json')).status).toBe(404);
    const none = appWith({ public: true, cardPath: false });
    expect((await none.request('/.well-known/agent-card.json')).status).toBe(404);
  });

  test('hooks run on POST only: the card stays public', async () => {
    const app = appWith({ hooks: auth() });
    expect((await send(app)).status).toBe(401);
    expect((await send(app, { authorization: 'Bearer good' })).status).toBe(200);
    expect((await app.request('/.well-known/agent-card.json')).status).toBe(200);
  });

  test('the App admits an allowed browser origin and refuses another', async () => {
    const app = new App({ logger: false });
    const agent = createA2aHandler({
      card: CARD,
      onMessage: () => 'x',
      allowedOrigins: ['https://app.example'],
    });
    app.registerRoutes(a2aRoutes('/a2a', agent, { public: true }));
    expect((await send(app, { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' })).status).toBe(
      200,
    );
    expect((await send(app, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
  });

  test('refuses bad arguments', () => {
    const agent = createA2aHandler({ card: CARD, onMessage: () => 'x' });
    expect(() => a2aRoutes('a2a', agent)).toThrow(/path/);
    expect(() => a2aRoutes('/a2a', {} as never)).toThrow(/handler/);
    expect(() => a2aRoutes('/a2a', agent, { public: 'yes' as never })).toThrow(/public/);
    expect(() => a2aRoutes('/a2a', agent, { cardPath: 'card' })).toThrow(/cardPath/);
    expect(() => a2aRoutes('/a2a', agent, { cardPath: '/a2a' })).toThrow(/differ/);
  });
});

describe('a2aRoutes production guards', () => {
  test('a production App without an authenticating hook refuses to boot (auth-missing)', async () => {
    const error = await bootError(appWith({}, { env: 'production' }));
    expect(error).toBeInstanceOf(InsecureConfigError);
    const issues = (error as InsecureConfigError).issues.filter((issue) => issue.code === 'auth-missing');
    expect(issues.map((issue) => issue.route)).toEqual(['POST /a2a']);
  });

  test('public: true or an authenticating hook boots in production', async () => {
    const open = appWith({ public: true }, { env: 'production' });
    expect(await open.ready()).toBe(open);
    const guarded = appWith({ hooks: auth() }, { env: 'production' });
    expect(await guarded.ready()).toBe(guarded);
  });

  test('under NODE_ENV=production an http or loopback card url is refused when the routes are built', () => {
    process.env.NODE_ENV = 'production';
    const http = createA2aHandler({
      card: { ...CARD, url: 'http://agent.example/a2a' },
      onMessage: () => 'x',
    });
    expect(() => a2aRoutes('/a2a', http)).toThrow(/must use https/);
    const loop = createA2aHandler({ card: { ...CARD, url: 'https://localhost/a2a' }, onMessage: () => 'x' });
    expect(() => a2aRoutes('/a2a', loop)).toThrow(/loopback/);
    const good = createA2aHandler({ card: CARD, onMessage: () => 'x' });
    expect(a2aRoutes('/a2a', good)).toHaveLength(4);
  });

  test('a production App refuses to boot with an http or loopback card url (insecure-in-production)', async () => {
    for (const url of ['http://agent.example/a2a', 'https://127.0.0.1/a2a']) {
      const error = await bootError(appWith({ public: true }, { production: true }, url));
      expect(error).toBeInstanceOf(InsecureConfigError);
      const issues = (error as InsecureConfigError).issues.filter((i) => i.code === 'insecure-in-production');
      expect(issues.map((issue) => issue.route)).toEqual(['POST /a2a']);
      expect(issues[0]?.severity).toBe('error');
      expect(issues[0]?.message).toContain(url);
    }
    // Outside production the same agent boots: a local http agent is how development works.
    const dev = appWith({ public: true }, {}, 'http://agent.example/a2a');
    expect(await dev.ready()).toBe(dev);
    expect(dev.assertSecureConfig().some((i) => i.code === 'insecure-in-production')).toBe(false);
  });

  test('an App with production: true refuses to serve an insecure card url (500 problem)', async () => {
    const app = appWith({ public: true }, { production: true }, 'http://agent.example/a2a');
    const card = await app.request('/.well-known/agent-card.json');
    expect(card.status).toBe(500);
    expect((await send(app)).status).toBe(500);
    const dev = appWith({ public: true }, {}, 'http://agent.example/a2a');
    expect((await dev.request('/.well-known/agent-card.json')).status).toBe(200);
  });
});

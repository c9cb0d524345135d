import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { ForbiddenError, UnauthorizedError } from '../errors/index.ts';
import { type Hooks, hookTraitsOf, withHookTraits } from '../types/index.ts';
import { every, except, some } from './combinators.ts';
import { cors } from './cors.ts';
import { csrf } from './csrf.ts';

const Ok = type({ ok: 'boolean' });
const ok = () => ({ status: 200 as const, body: { ok: true } });

function appWith(hooks: Hooks): App {
  const app = new App({ logger: false });
  app.use(hooks);
  for (const path of ['/ok', '/health', '/public/page', '/public', '/private']) {
    app.get(path, { responses: { 200: { body: Ok } } }, ok);
  }
  app.post('/ok', { responses: { 200: { body: Ok } } }, ok);
  return app;
}

/** A preBody guard admitting requests with `header: value`, logging its runs. */
function headerGuard(log: string[], name: string, header: string, value: string): Hooks {
  return withHookTraits(
    {
      preBody: (ctx) => {
        log.push(`preBody:${name}`);
        if (ctx.request.headers.get(header) !== value) {
          throw new UnauthorizedError({ detail: `${name} refused`, challenge: `${name} realm="api"` });
        }
        ctx.state.user = { sub: name, scopes: [], claims: {} };
      },
      onSend: (response) => {
        log.push(`onSend:${name}`);
        response.headers.set('x-accepted-by', name);
      },
    },
    { authenticates: true },
  );
}

async function expectStatus(response: Response, status: number, detail?: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  if (detail !== undefined) {
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  }
}

describe('every', () => {
  test('runs every guard in order and answers with the first refusal, skipping the rest', async () => {
    const log: string[] = [];
    const app = appWith(every(headerGuard(log, 'a', 'x-a', '1'), headerGuard(log, 'b', 'x-b', '1')));
    const both = await app.request('/ok', { headers: { 'x-a': '1', 'x-b': '1' } });
    expect(both.status).toBe(200);
    expect(await both.json()).toEqual({ ok: true });
    expect(log).toEqual(['preBody:a', 'preBody:b', 'onSend:a', 'onSend:b']);
    log.length = 0;
    await expectStatus(await app.request('/ok', { headers: { 'x-b': '1' } }), 401, /a refused/);
    expect(log).toEqual(['preBody:a', 'onSend:a', 'onSend:b']);
    await expectStatus(await app.request('/ok', { headers: { 'x-a': '1' } }), 401, /b refused/);
  });

  test('answers with a Response a guard returns, in onRequest and beforeHandle too', async () => {
    const app = appWith(
      every(
        {
          onRequest: (request) =>
            request.headers.has('x-stop') ? new Response('stopped', { status: 429 }) : undefined,
        },
        {
          beforeHandle: (ctx) =>
            ctx.request.headers.has('x-late') ? new Response('late', { status: 409 }) : undefined,
        },
      ),
    );
    expect((await app.request('/ok')).status).toBe(200);
    const stopped = await app.request('/missing', { headers: { 'x-stop': '1' } });
    expect(stopped.status).toBe(429);
    expect(await stopped.text()).toBe('stopped');
    const late = await app.request('/ok', { headers: { 'x-late': '1' } });
    expect(late.status).toBe(409);
    expect(await late.text()).toBe('late');
  });

  test('chains afterHandle results and onSend replacements, and takes the first onError answer', async () => {
    const app = new App({ logger: false });
    app.use(
      every(
        {
          afterHandle: (_ctx, result) => ({ ...result, headers: { 'x-first': '1' } }),
          onError: () => undefined,
          onSend: (response) =>
            new Response(response.body, { status: response.status, headers: { 'x-sent': 'a' } }),
        },
        {
          afterHandle: (_ctx, result) => ({ ...result, body: { ok: false } }),
          onError: (error) => new Response(`handled ${(error as Error).message}`, { status: 503 }),
          onSend: (response) => {
            response.headers.set('x-sent', `${response.headers.get('x-sent')}b`);
          },
        },
      ),
    );
    app.get('/ok', { responses: { 200: { body: Ok } } }, ok);
    app.get('/boom', { responses: { 200: { body: Ok } } }, () => {
      throw new Error('kaput');
    });
    const response = await app.request('/ok');
    expect(await response.json()).toEqual({ ok: false });
    expect(response.headers.get('x-sent')).toBe('ab');
    const failed = await app.request('/boom');
    expect(failed.status).toBe(503);
    expect(await failed.text()).toBe('handled kaput');
  });

  test('carries the union of the traits', () => {
    const traits = hookTraitsOf(
      every(withHookTraits({}, { authenticates: true }), csrf(), cors({ origin: 'https://a.example' })),
    );
    expect(traits?.authenticates).toBe(true);
    expect(traits?.csrfProtection).toBe(true);
    expect(traits?.cors?.allowsOrigin('https://a.example')).toBe(true);
    expect(hookTraitsOf(every({}, {}))).toEqual({});
  });
});

describe('some', () => {
  test('passes when any branch passes, stopping at the first that does', async () => {
    const log: string[] = [];
    const app = appWith(
      some(
        headerGuard(log, 'bearer', 'authorization', 'Bearer t'),
        headerGuard(log, 'key', 'x-api-key', 'k'),
      ),
    );
    const byKey = await app.request('/ok', { headers: { 'x-api-key': 'k' } });
    expect(byKey.status).toBe(200);
    expect(log).toEqual(['preBody:bearer', 'preBody:key', 'onSend:key']);
    expect(byKey.headers.get('x-accepted-by')).toBe('key');
    log.length = 0;
    const byBearer = await app.request('/ok', { headers: { authorization: 'Bearer t', 'x-api-key': 'k' } });
    expect(byBearer.headers.get('x-accepted-by')).toBe('bearer');
    expect(log).toEqual(['preBody:bearer', 'onSend:bearer']);
  });

  test('answers with the first branch’s refusal when all refuse, and runs no branch’s onSend', async () => {
    const log: string[] = [];
    const app = appWith(
      some(
        headerGuard(log, 'bearer', 'authorization', 'Bearer t'),
        headerGuard(log, 'key', 'x-api-key', 'k'),
      ),
    );
    const refused = await app.request('/ok');
    expect(refused.headers.get('www-authenticate')).toBe('bearer realm="api"');
    expect(refused.headers.get('x-accepted-by')).toBeNull();
    await expectStatus(refused, 401, /bearer refused/);
    expect(log).toEqual(['preBody:bearer', 'preBody:key']);
  });

  test('decides in onRequest, unmatched paths included, when every branch guards there only', async () => {
    const allow = (header: string): Hooks => ({
      onRequest: (request) => {
        if (!request.headers.has(header)) throw new ForbiddenError(`needs ${header}`);
      },
    });
    const app = appWith(some(allow('x-a'), allow('x-b')));
    await expectStatus(await app.request('/missing'), 403, /needs x-a/);
    expect((await app.request('/missing', { headers: { 'x-b': '1' } })).status).toBe(404);
    expect((await app.request('/ok', { headers: { 'x-a': '1' } })).status).toBe(200);
  });

  test('takes a returned Response as a refusal too', async () => {
    const app = appWith(
      some(
        { preBody: () => new Response('first', { status: 402 }) },
        { preBody: () => new Response('second', { status: 403 }) },
      ),
    );
    const response = await app.request('/ok');
    expect(response.status).toBe(402);
    expect(await response.text()).toBe('first');
  });

  test('with branches in different phases, runs an onRequest branch at preBody and lets a later one pass', async () => {
    const log: string[] = [];
    const network: Hooks = {
      onRequest: (request) => {
        log.push(`onRequest:${request.headers.get('x-net') ?? '-'}`);
        if (request.headers.get('x-net') !== 'internal')
          throw new ForbiddenError('not from the internal network');
      },
    };
    const app = appWith(some(network, headerGuard(log, 'key', 'x-api-key', 'k')));
    expect((await app.request('/ok', { headers: { 'x-net': 'internal' } })).status).toBe(200);
    expect(log).toEqual(['onRequest:internal']);
    log.length = 0;
    expect((await app.request('/ok', { headers: { 'x-api-key': 'k' } })).status).toBe(200);
    expect(log).toEqual(['onRequest:-', 'preBody:key', 'onSend:key']);
    await expectStatus(await app.request('/ok'), 403, /internal network/);
  });

  test('when the accepting branch refuses in beforeHandle, catches up the next branch', async () => {
    const log: string[] = [];
    const picky: Hooks = {
      preBody: () => void log.push('preBody:picky'),
      beforeHandle: (ctx) => {
        log.push('beforeHandle:picky');
        if (ctx.request.method === 'POST') throw new ForbiddenError('picky refuses writes');
      },
    };
    const fallback: Hooks = {
      onRequest: () => void log.push('onRequest:fallback'),
      preBody: () => void log.push('preBody:fallback'),
      beforeHandle: (ctx) => {
        log.push('beforeHandle:fallback');
        if (!ctx.request.headers.has('x-ok')) throw new ForbiddenError('fallback refuses');
      },
    };
    const app = appWith(some(picky, fallback));
    expect((await app.request('/ok')).status).toBe(200);
    expect(log).toEqual(['preBody:picky', 'beforeHandle:picky']);
    log.length = 0;
    expect((await app.request('/ok', { method: 'POST', headers: { 'x-ok': '1' } })).status).toBe(200);
    expect(log).toEqual([
      'preBody:picky',
      'beforeHandle:picky',
      'onRequest:fallback',
      'preBody:fallback',
      'beforeHandle:fallback',
    ]);
    await expectStatus(await app.request('/ok', { method: 'POST' }), 403, /picky refuses writes/);
  });

  test('keeps only the traits every branch guarantees', () => {
    const authA = withHookTraits({}, { authenticates: true });
    const authB = withHookTraits({}, { authenticates: true, usesSession: true });
    expect(hookTraitsOf(some(authA, authB))).toEqual({ authenticates: true, usesSession: true });
    expect(hookTraitsOf(some(authA, {}))?.authenticates).toBeUndefined();
    expect(hookTraitsOf(some(csrf(), authA))?.csrfProtection).toBeUndefined();
  });
});

describe('except', () => {
  const guard: Hooks = withHookTraits(
    {
      preBody: (ctx) => {
        if (ctx.request.headers.get('authorization') === null)
          throw new UnauthorizedError('credentials required');
      },
      onSend: (response) => {
        response.headers.set('x-guarded', '1');
      },
    },
    { authenticates: true },
  );

  test('skips the hooks on listed paths, exact or ending in *', async () => {
    const app = appWith(except(['/health', '/public/*'], guard));
    for (const path of ['/health', '/public/page']) {
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-guarded')).toBeNull();
    }
    for (const path of ['/public', '/private', '/ok']) {
      const response = await app.request(path);
      expect(response.headers.get('x-guarded')).toBe('1');
      await expectStatus(response, 401, /credentials required/);
    }
    expect((await app.request('/private', { headers: { authorization: 'x' } })).status).toBe(200);
  });

  test('never skips for another spelling of an excepted path', async () => {
    const app = appWith(except(['/health'], guard));
    // The router decodes `%74` to `t` and answers /health, but the guard still runs.
    await expectStatus(await app.request('/heal%74h'), 401, /credentials required/);
    expect((await app.request('/heal%74h', { headers: { authorization: 'x' } })).status).toBe(200);
  });

  test('skips by method, by { paths, methods } together, and by predicate', async () => {
    const byMethod = appWith(except(['GET', 'HEAD'], guard));
    expect((await byMethod.request('/ok')).status).toBe(200);
    expect((await byMethod.request('/ok', { method: 'POST' })).status).toBe(401);
    const both = appWith(except({ paths: ['/ok'], methods: ['POST'] }, guard));
    expect((await both.request('/ok', { method: 'POST' })).status).toBe(200);
    expect((await both.request('/ok')).status).toBe(401);
    expect((await both.request('/private', { method: 'GET' })).status).toBe(401);
    const byPredicate = appWith(except((request) => request.headers.get('x-internal') === 'yes', guard));
    expect((await byPredicate.request('/ok', { headers: { 'x-internal': 'yes' } })).status).toBe(200);
    expect((await byPredicate.request('/ok', { headers: { 'x-internal': 'no' } })).status).toBe(401);
  });

  test('skips onRequest guards before routing', async () => {
    const app = appWith(except(['/open/*'], { onRequest: () => new Response('closed', { status: 503 }) }));
    expect((await app.request('/open/anything')).status).toBe(404);
    expect((await app.request('/ok')).status).toBe(503);
  });

  test('drops authenticates, and keeps csrfProtection only when just safe methods are skipped', () => {
    expect(hookTraitsOf(except(['/health'], guard))?.authenticates).toBeUndefined();
    expect(hookTraitsOf(except(['GET', 'HEAD', 'OPTIONS'], csrf()))?.csrfProtection).toBe(true);
    expect(hookTraitsOf(except(['/webhooks/*'], csrf()))?.csrfProtection).toBeUndefined();
    expect(hookTraitsOf(except(['POST'], csrf()))?.csrfProtection).toBeUndefined();
    const corsTraits = hookTraitsOf(except(['/internal/*'], cors({ origin: 'https://a.example' })))?.cors;
    expect(corsTraits?.allowsOrigin('https://a.example')).toBe(true);
  });

  test('refuses malformed conditions', () => {
    expect(() => except(['/a', 'GET'], guard)).toThrow(/paths or a list of methods/);
    expect(() => except(['/a/*/b'], guard)).toThrow(/only at its end/);
    expect(() => except(['FETCH'], guard)).toThrow(/method "FETCH"/);
    expect(() => except([], guard)).toThrow(TypeError);
    expect(() => except({}, guard)).toThrow(TypeError);
    expect(() => except({ paths: 'x' as never }, guard)).toThrow(/"paths"/);
    expect(() => except('/health' as never, guard)).toThrow(TypeError);
    expect(() => except(['/a'], null as never)).toThrow(TypeError);
  });
});

describe('combinator traits: secrets', () => {
  test('every, some and except pass on every secret their parts rely on', () => {
    const a = withHookTraits({}, { secrets: [{ where: 'session', value: 'a'.repeat(32) }] });
    const b = withHookTraits({}, { secrets: [{ where: 'webhook', value: 'b'.repeat(32) }] });
    const where = (hooks: Hooks) => hookTraitsOf(hooks)?.secrets?.map((s) => s.where);
    expect(where(every(a, b))).toEqual(['session', 'webhook']);
    expect(where(some(a, b))).toEqual(['session', 'webhook']);
    expect(where(except(['/x'], a))).toEqual(['session']);
    expect(where(every({}, {}))).toBeUndefined();
  });
});

describe('combinator arguments', () => {
  test('every and some need at least one Hooks object', () => {
    expect(() => every()).toThrow(/at least one/);
    expect(() => some()).toThrow(/at least one/);
    expect(() => every(null as never)).toThrow(/argument 1/);
    expect(() => some({}, [] as never)).toThrow(/argument 2/);
  });

  test('combinators nest', async () => {
    const log: string[] = [];
    const app = appWith(
      except(
        ['/health'],
        some(
          headerGuard(log, 'a', 'x-a', '1'),
          every(headerGuard(log, 'b', 'x-b', '1'), headerGuard(log, 'c', 'x-c', '1')),
        ),
      ),
    );
    expect((await app.request('/health')).status).toBe(200);
    expect((await app.request('/ok', { headers: { 'x-b': '1', 'x-c': '1' } })).status).toBe(200);
    expect((await app.request('/ok', { headers: { 'x-b': '1' } })).status).toBe(401);
  });
});

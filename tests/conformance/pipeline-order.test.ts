import { describe, expect, test } from 'bun:test';
import { App, ForbiddenError, type Hooks, type StandardSchemaV1 } from '@charter/core';
import { type } from 'arktype';
import { expectProblem } from './support/problem.ts';
import { post } from './support/request.ts';
import { trackedBody } from '../support/tracked-body.ts';

/** A Standard Schema that records when it validates and accepts anything. */
function recordingSchema<T>(log: string[], label: string, transform: (v: unknown) => T = (v) => v as T) {
  return {
    '~standard': {
      version: 1,
      vendor: 'conformance',
      validate: (value: unknown) => {
        log.push(`validate:${label}`);
        return { value: transform(value) };
      },
    },
  } as StandardSchemaV1<T, T>;
}

/** Hooks of every phase that push `<phase>:<layer>` to the log. */
function layer(log: string[], name: string): Hooks {
  return {
    onRequest: () => {
      log.push(`onRequest:${name}`);
    },
    preBody: () => {
      log.push(`preBody:${name}`);
    },
    beforeHandle: () => {
      log.push(`beforeHandle:${name}`);
    },
    afterHandle: () => {
      log.push(`afterHandle:${name}`);
    },
    onError: () => {
      log.push(`onError:${name}`);
    },
    onSend: () => {
      log.push(`onSend:${name}`);
    },
    onResponse: () => {
      log.push(`onResponse:${name}`);
    },
  };
}

const Out = type({ ok: 'boolean' });

describe('pipeline order', () => {
  test('runs every step of a matched POST with a body in the documented order', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: layer(log, 'ctor') });
    app.use(layer(log, 'use'));
    app.group('/g', { hooks: layer(log, 'group') }, (g) => {
      g.post(
        '/items/:id',
        {
          request: {
            params: recordingSchema(log, 'params'),
            query: recordingSchema(log, 'query'),
            headers: recordingSchema(log, 'headers'),
            body: recordingSchema(log, 'body'),
          },
          responses: { 201: { body: Out } },
          hooks: layer(log, 'route'),
        },
        () => {
          log.push('handler');
          return { status: 201, body: { ok: true } };
        },
      );
    });
    const res = await app.fetch(post('/g/items/1?q=1', '{"a":1}'));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
    expect(log).toEqual([
      'onRequest:ctor',
      'onRequest:use',
      'onRequest:group',
      'onRequest:route',
      'preBody:ctor',
      'preBody:use',
      'preBody:group',
      'preBody:route',
      'validate:params',
      'validate:query',
      'validate:headers',
      'validate:body',
      'beforeHandle:ctor',
      'beforeHandle:use',
      'beforeHandle:group',
      'beforeHandle:route',
      'handler',
      'afterHandle:ctor',
      'afterHandle:use',
      'afterHandle:group',
      'afterHandle:route',
      'onSend:ctor',
      'onSend:use',
      'onSend:group',
      'onSend:route',
      'onResponse:ctor',
      'onResponse:use',
      'onResponse:group',
      'onResponse:route',
    ]);
  });

  test('hooks given as arrays run in array order within each layer', async () => {
    const log: string[] = [];
    const app = new App({ logger: false, hooks: [layer(log, 'ctor1'), layer(log, 'ctor2')] });
    app.use([layer(log, 'use1'), layer(log, 'use2')]);
    app.group('/g', { hooks: [layer(log, 'group1'), layer(log, 'group2')] }, (g) => {
      g.get(
        '/x',
        { responses: { 200: { body: Out } }, hooks: [layer(log, 'route1'), layer(log, 'route2')] },
        () => ({
          status: 200,
          body: { ok: true },
        }),
      );
    });
    const res = await app.request('/g/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
    const order = ['ctor1', 'ctor2', 'use1', 'use2', 'group1', 'group2', 'route1', 'route2'];
    expect(log.filter((l) => l.startsWith('beforeHandle:'))).toEqual(order.map((n) => `beforeHandle:${n}`));
    expect(log.filter((l) => l.startsWith('onRequest:'))).toEqual(order.map((n) => `onRequest:${n}`));
    expect(log.filter((l) => l.startsWith('onResponse:'))).toEqual(order.map((n) => `onResponse:${n}`));
  });

  test('async hooks are awaited before the next step', async () => {
    const log: string[] = [];
    const later = (label: string) => async () => {
      await new Promise((r) => setTimeout(r, 5));
      log.push(label);
    };
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: { body: Out } },
        hooks: { preBody: later('preBody'), beforeHandle: later('beforeHandle'), onSend: later('onSend') },
      },
      () => {
        log.push('handler');
        return { status: 200, body: { ok: true } };
      },
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
    expect(log).toEqual(['preBody', 'beforeHandle', 'handler', 'onSend']);
  });
});

describe('pipeline: preBody context', () => {
  test('preBody sees raw string params, raw query, lower-case headers, no body, and the body unread', async () => {
    const seen: Record<string, unknown> = {};
    const tracked = trackedBody('{"name":"n"}');
    let pulledInHandler: boolean | undefined;
    const app = new App({ logger: false });
    app.post(
      '/items/:id',
      {
        request: {
          params: type({ id: 'string.numeric.parse' }),
          query: type({ tag: 'string[]', n: 'string.numeric.parse' }),
          body: type({ name: 'string' }),
        },
        responses: { 200: { body: type({ id: 'number', name: 'string' }) } },
        hooks: {
          preBody: (ctx) => {
            seen.params = { ...ctx.params };
            seen.query = { ...ctx.query };
            seen.header = ctx.headers['x-custom-header'];
            seen.headerKeys = Object.keys(ctx.headers).filter((k) => k !== k.toLowerCase());
            seen.body = ctx.body;
            seen.pulled = tracked.pulled();
            seen.route = ctx.route;
          },
        },
      },
      (ctx) => {
        pulledInHandler = tracked.pulled();
        return { status: 200, body: { id: ctx.params.id, name: ctx.body.name } };
      },
    );
    const res = await app.fetch(
      post('/items/42?tag=a&tag=b&n=7', tracked.body, { 'X-Custom-Header': 'Value' }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 42, name: 'n' });
    expect(seen).toEqual({
      params: { id: '42' },
      query: { tag: ['a', 'b'], n: '7' },
      header: 'Value',
      headerKeys: [],
      body: undefined,
      pulled: false,
      route: {
        method: 'POST',
        path: '/items/:id',
        operationId: undefined,
        auth: undefined,
        production: false,
      },
    });
    expect(pulledInHandler).toBe(true);
  });

  test('a single query value stays a string in preBody', async () => {
    let query: unknown;
    const app = new App({ logger: false });
    app.get(
      '/q',
      { responses: { 204: {} }, hooks: { preBody: (ctx) => void (query = { ...ctx.query }) } },
      () => ({ status: 204 }),
    );
    const res = await app.request('/q?tag=a&empty=');
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
    expect(query).toEqual({ tag: 'a', empty: '' });
  });
});

describe('pipeline: short-circuits', () => {
  test('a Response returned by preBody ends the request before validation, beforeHandle and the handler', async () => {
    const log: string[] = [];
    const tracked = trackedBody('not json at all');
    const app = new App({ logger: false });
    app.post(
      '/x',
      {
        request: { body: recordingSchema(log, 'body') },
        responses: { 200: { body: Out } },
        hooks: {
          preBody: () => {
            log.push('preBody');
            return new Response(JSON.stringify({ denied: true }), {
              status: 401,
              headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
            });
          },
          beforeHandle: () => void log.push('beforeHandle'),
          afterHandle: () => void log.push('afterHandle'),
          onSend: () => void log.push('onSend'),
          onResponse: () => void log.push('onResponse'),
        },
      },
      () => {
        log.push('handler');
        return { status: 200, body: { ok: true } };
      },
    );
    const res = await app.fetch(post('/x', tracked.body));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ denied: true });
    expect(log).toEqual(['preBody', 'onSend', 'onResponse']);
    expect(tracked.pulled()).toBe(false);
  });

  test('a preBody hook that throws ends the request before the body is read', async () => {
    const tracked = trackedBody('{}');
    const app = new App({ logger: false });
    let handled = false;
    app.post(
      '/x',
      {
        request: { body: type('object') },
        responses: { 200: {} },
        hooks: {
          preBody: () => {
            throw new ForbiddenError('no scope');
          },
        },
      },
      () => {
        handled = true;
        return { status: 200 };
      },
    );
    const body = await expectProblem(await app.fetch(post('/x', tracked.body)), 403);
    expect(body).toEqual({
      type: 'https://charter.dev/errors/forbidden',
      title: 'Forbidden',
      status: 403,
      detail: 'no scope',
    });
    expect(tracked.pulled()).toBe(false);
    expect(handled).toBe(false);
  });

  test('a preBody 403 wins over a malformed body', async () => {
    const app = new App({ logger: false });
    app.post(
      '/x',
      {
        request: { body: type({ a: 'string' }) },
        responses: { 200: {} },
        hooks: { preBody: () => new Response(null, { status: 403 }) },
      },
      () => ({ status: 200 }),
    );
    const res = await app.fetch(post('/x', '{not json'));
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  test('a Response returned by beforeHandle ends the request before the handler', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.post(
      '/x',
      {
        request: { body: type({ a: 'string' }) },
        responses: { 200: { body: Out } },
        hooks: [
          {
            beforeHandle: (ctx) => {
              log.push(`beforeHandle1:${JSON.stringify(ctx.body)}`);
              return new Response('stop', {
                status: 429,
                headers: { 'retry-after': '3', 'content-type': 'text/plain' },
              });
            },
          },
          {
            beforeHandle: () => void log.push('beforeHandle2'),
            afterHandle: () => void log.push('afterHandle'),
          },
        ],
      },
      () => {
        log.push('handler');
        return { status: 200, body: { ok: true } };
      },
    );
    const res = await app.fetch(post('/x', '{"a":"b"}'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('stop');
    expect(log).toEqual(['beforeHandle1:{"a":"b"}']);
  });

  test('an onRequest hook that returns a Response ends the request before routing', async () => {
    let handled = false;
    const app = new App({
      logger: false,
      hooks: {
        onRequest: (req) =>
          req.headers.has('x-block')
            ? new Response('blocked', { status: 451, headers: { 'content-type': 'text/plain' } })
            : undefined,
      },
    });
    app.get('/x', { responses: { 200: { body: Out } } }, () => {
      handled = true;
      return { status: 200, body: { ok: true } };
    });
    const blocked = await app.request('/x', { headers: { 'x-block': '1' } });
    expect(blocked.status).toBe(451);
    expect(blocked.headers.get('content-type')).toBe('text/plain');
    expect(await blocked.text()).toBe('blocked');
    expect(handled).toBe(false);
    const passed = await app.request('/x');
    expect(passed.status).toBe(200);
    expect(passed.headers.get('content-type')).toBe('application/json');
    expect(await passed.json()).toEqual({ ok: true });
  });
});

describe('pipeline: raw Responses from hooks', () => {
  const route = (phase: 'preBody' | 'beforeHandle', status: number, acknowledge: boolean) => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: { body: Out } },
        acknowledgeNoResponseBodySchema: acknowledge,
        hooks: {
          [phase]: () =>
            new Response(JSON.stringify({ raw: status }), {
              status,
              headers: { 'content-type': 'application/json', 'x-raw': 'yes' },
            }),
        },
      },
      () => ({ status: 200, body: { ok: true } }),
    );
    return app;
  };

  for (const phase of ['preBody', 'beforeHandle'] as const) {
    test(`a successful raw Response from ${phase} without acknowledgeNoResponseBodySchema gives 500`, async () => {
      const res = await route(phase, 200, false).request('/x');
      const body = await expectProblem(res, 500);
      expect(body.type).toBe('https://charter.dev/errors/internal');
      expect(String(body.detail)).toContain('acknowledgeNoResponseBodySchema');
      expect(res.headers.get('x-raw')).toBeNull();
    });

    test(`a successful raw Response from ${phase} with acknowledgeNoResponseBodySchema is sent as is`, async () => {
      const res = await route(phase, 200, true).request('/x');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-raw')).toBe('yes');
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ raw: 200 });
    });

    test(`a redirect raw Response from ${phase} also needs the acknowledgement`, async () => {
      await expectProblem(await route(phase, 302, false).request('/x'), 500);
    });

    for (const status of [401, 403]) {
      test(`a ${status} raw Response from ${phase} needs no acknowledgement`, async () => {
        const res = await route(phase, status, false).request('/x');
        expect(res.status).toBe(status);
        expect(res.headers.get('x-raw')).toBe('yes');
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(await res.json()).toEqual({ raw: status });
      });
    }
  }

  test('the 500 detail for an unacknowledged raw Response is redacted in production', async () => {
    const app = new App({ logger: false, production: true });
    app.get('/x', { responses: { 200: {} }, hooks: { preBody: () => new Response('ok') } }, () => ({
      status: 200,
    }));
    const res = await app.request('/x');
    const body = await expectProblem(res, 500);
    expect(body).toEqual({
      type: 'https://charter.dev/errors/internal',
      title: 'Internal Server Error',
      status: 500,
    });
  });
});

describe('pipeline: replacing results and responses', () => {
  test('afterHandle can replace the handler result, which is then validated and serialised', async () => {
    const app = new App({ logger: false });
    let seenResult: unknown;
    app.get(
      '/x',
      {
        responses: { 200: { body: type({ n: 'number' }) }, 202: { body: type({ wrapped: 'number' }) } },
        hooks: {
          afterHandle: (_ctx, result) => {
            seenResult = result;
            return {
              status: 202,
              body: { wrapped: (result.body as { n: number }).n },
              headers: { 'x-after': '1' },
            };
          },
        },
      },
      () => ({ status: 200, body: { n: 5 } }),
    );
    const res = await app.request('/x');
    expect(res.status).toBe(202);
    expect(res.headers.get('x-after')).toBe('1');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ wrapped: 5 });
    expect(seenResult).toEqual({ status: 200, body: { n: 5 } });
  });

  test('a later afterHandle sees the result of an earlier one', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: { body: type({ n: 'number' }) } },
        hooks: [
          { afterHandle: (_c, r) => ({ ...r, body: { n: (r.body as { n: number }).n + 1 } }) },
          { afterHandle: () => undefined },
          { afterHandle: (_c, r) => ({ ...r, body: { n: (r.body as { n: number }).n * 10 } }) },
        ],
      },
      () => ({ status: 200, body: { n: 1 } }),
    );
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ n: 20 });
  });

  test('an afterHandle result with an undeclared status gives 500', async () => {
    const app = new App({ logger: false });
    app.get('/x', { responses: { 200: {} }, hooks: { afterHandle: () => ({ status: 299 }) } }, () => ({
      status: 200,
    }));
    const body = await expectProblem(await app.request('/x'), 500);
    expect(String(body.detail)).toContain('299');
  });

  test('onSend can replace the response, and onResponse observes the replacement', async () => {
    let observed: number | undefined;
    const app = new App({ logger: false });
    app.use({
      onSend: () =>
        new Response('replaced', {
          status: 202,
          headers: { 'x-on-send': '1', 'content-type': 'text/plain' },
        }),
      onResponse: (res) => {
        observed = res.status;
      },
    });
    app.get('/x', { responses: { 200: { body: Out } } }, () => ({ status: 200, body: { ok: true } }));
    const res = await app.request('/x');
    expect(res.status).toBe(202);
    expect(res.headers.get('x-on-send')).toBe('1');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('replaced');
    expect(observed).toBe(202);
  });

  test('onSend can mutate the response headers in place', async () => {
    const app = new App({
      logger: false,
      hooks: { onSend: (res) => void res.headers.set('x-served-by', 'charter') },
    });
    app.get('/x', { responses: { 200: { body: Out } } }, () => ({ status: 200, body: { ok: true } }));
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-served-by')).toBe('charter');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
  });

  test('onError can answer instead of the problem document, and later onError hooks are skipped', async () => {
    const errors: unknown[] = [];
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        hooks: [
          {
            onError: (error, ctx) => {
              errors.push([(error as Error).message, ctx?.route.path]);
              return new Response('teapot', {
                status: 418,
                headers: { 'x-handled': 'yes', 'content-type': 'text/plain' },
              });
            },
          },
          { onError: () => void errors.push('second') },
        ],
      },
      () => {
        throw new Error('boom');
      },
    );
    const res = await app.request('/x');
    expect(res.status).toBe(418);
    expect(res.headers.get('x-handled')).toBe('yes');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('teapot');
    expect(errors).toEqual([['boom', '/x']]);
  });

  test('onError that only observes leaves the problem document, and onSend still runs', async () => {
    const log: string[] = [];
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        hooks: {
          onError: (e) => void log.push(`onError:${(e as Error).message}`),
          onSend: (res) => void log.push(`onSend:${res.status}`),
          onResponse: (res) => void log.push(`onResponse:${res.status}`),
        },
      },
      () => {
        throw new ForbiddenError('nope');
      },
    );
    const body = await expectProblem(await app.request('/x'), 403);
    expect(body.detail).toBe('nope');
    expect(log).toEqual(['onError:nope', 'onSend:403', 'onResponse:403']);
  });

  test('an onError hook that throws is ignored and the problem document is sent', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        hooks: {
          onError: () => {
            throw new Error('onError broke');
          },
        },
      },
      () => {
        throw new ForbiddenError('denied');
      },
    );
    const body = await expectProblem(await app.request('/x'), 403);
    expect(body.detail).toBe('denied');
  });

  test('an onResponse hook that throws does not change the response', async () => {
    const app = new App({
      logger: false,
      hooks: {
        onResponse: () => {
          throw new Error('metrics down');
        },
      },
    });
    app.get('/x', { responses: { 200: { body: Out } } }, () => ({ status: 200, body: { ok: true } }));
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('pipeline: errors in every step become problem documents', () => {
  const fail = (): never => {
    throw new ForbiddenError('from step');
  };
  const cases: [string, (app: App) => void][] = [
    ['constructor onRequest', () => {}],
    ['app.use onRequest', (app) => app.use({ onRequest: fail })],
    ['route onRequest', () => {}],
    ['preBody', () => {}],
    ['beforeHandle', () => {}],
    ['handler', () => {}],
    ['afterHandle', () => {}],
    ['onSend', () => {}],
  ];
  for (const [step, setup] of cases) {
    test(`a throw in ${step} gives a problem document with the error status`, async () => {
      const onErrorSeen: string[] = [];
      const app = new App({
        logger: false,
        hooks: {
          onRequest: step === 'constructor onRequest' ? fail : undefined,
          onError: (e) => void onErrorSeen.push((e as Error).message),
        },
      });
      setup(app);
      const hooks: Hooks = {};
      if (step === 'route onRequest') hooks.onRequest = fail;
      if (step === 'preBody') hooks.preBody = fail;
      if (step === 'beforeHandle') hooks.beforeHandle = fail;
      if (step === 'afterHandle') hooks.afterHandle = fail;
      if (step === 'onSend') hooks.onSend = fail;
      app.get('/x', { responses: { 200: { body: Out } }, hooks }, () =>
        step === 'handler' ? fail() : { status: 200, body: { ok: true } },
      );
      const res = await app.request('/x');
      const body = await expectProblem(res, 403);
      expect(body).toEqual({
        type: 'https://charter.dev/errors/forbidden',
        title: 'Forbidden',
        status: 403,
        detail: 'from step',
      });
      if (step !== 'onSend') expect(onErrorSeen).toEqual(['from step']);
    });
  }

  test('a validation failure gives a 422 problem document', async () => {
    const app = new App({ logger: false });
    app.post('/x', { request: { body: type({ a: 'string' }) }, responses: { 200: {} } }, () => ({
      status: 200,
    }));
    const body = await expectProblem(await app.fetch(post('/x', '{"a":1}')), 422);
    expect(body.type).toBe('https://charter.dev/errors/validation');
    expect(body.issues).toEqual([{ in: 'body', path: ['a'], message: expect.any(String) }]);
  });

  test('a plain Error thrown in a hook gives a 500 problem document', async () => {
    const app = new App({ logger: false });
    app.get(
      '/x',
      {
        responses: { 200: {} },
        hooks: {
          beforeHandle: () => {
            throw new Error('hook bug');
          },
        },
      },
      () => ({ status: 200 }),
    );
    const body = await expectProblem(await app.request('/x'), 500);
    expect(body.type).toBe('https://charter.dev/errors/internal');
    expect(body.detail).toBe('hook bug');
  });

  test('onError receives the context for errors after routing and none before', async () => {
    const seen: [string, boolean][] = [];
    const app = new App({
      logger: false,
      hooks: {
        onRequest: (req) => {
          if (req.headers.has('x-early')) throw new ForbiddenError('early');
        },
        onError: (e, ctx) => void seen.push([(e as Error).message, ctx !== undefined]),
      },
    });
    app.get('/x', { responses: { 200: {} } }, () => {
      throw new ForbiddenError('late');
    });
    await expectProblem(await app.request('/x', { headers: { 'x-early': '1' } }), 403);
    await expectProblem(await app.request('/x'), 403);
    expect(seen).toEqual([
      ['early', false],
      ['late', true],
    ]);
  });
});

describe('an onSend hook that throws', () => {
  const Out = type({ ok: 'boolean' });

  function appWith(log: string[], onError: (error: unknown) => Response | undefined): App {
    const app = new App({
      logger: false,
      hooks: {
        onError: (error) => {
          log.push('onError');
          return onError(error);
        },
      },
    });
    app.get(
      '/x',
      {
        responses: { 200: { body: Out } },
        hooks: [
          {
            onSend: () => {
              log.push('onSend:1');
              throw new ForbiddenError('Refused while sending');
            },
          },
          {
            onSend: () => void log.push('onSend:2'),
            onResponse: (response) => void log.push(`onResponse:${response.status}`),
          },
        ],
      },
      () => ({ status: 200, body: { ok: true } }),
    );
    return app;
  }

  test('goes through onError, which may answer; later onSend hooks are skipped, onResponse sees the answer', async () => {
    const log: string[] = [];
    const app = appWith(log, () => Response.json({ replaced: true }, { status: 503 }));
    const res = await app.request('/x');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ replaced: true });
    // The security headers are added to what onError answered, as to any response.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(log).toEqual(['onSend:1', 'onError', 'onResponse:503']);
  });

  test('without an answer from onError, the thrown error is the problem sent', async () => {
    const log: string[] = [];
    const app = appWith(log, () => undefined);
    const res = await app.request('/x');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      type: 'https://charter.dev/errors/forbidden',
      status: 403,
      detail: 'Refused while sending',
    });
    expect(log).toEqual(['onSend:1', 'onError', 'onResponse:403']);
  });
});

import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { bearer } from '../auth/bearer.ts';
import { httpBearerScheme } from '../auth/schemes.ts';
import { every, except } from '../middleware/combinators.ts';
import { autoBan } from '../middleware/auto-ban.ts';
import { csrf } from '../middleware/csrf.ts';
import { idempotency } from '../middleware/idempotency.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { waf } from '../middleware/waf.ts';
import { withHookTraits } from '../types/index.ts';
import { App } from './app.ts';
import type { AppOptions } from './options.ts';

function answersOf(app: App, index = 0): Record<number, unknown> {
  const route = app.registeredRoutes()[index];
  if (route === undefined) throw new Error('no such route');
  return Object.fromEntries(app.frameworkAnswers(route).map((answer) => [answer.status, answer]));
}

const newApp = (options: AppOptions = {}) => new App({ logger: false, ...options });

describe('App.frameworkAnswers', () => {
  test('every route: 400, 431 and the timeout status; no body, no 413/415/422', () => {
    const app = newApp();
    app.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(Object.keys(answersOf(app))).toEqual(['400', '408', '431']);
  });

  test('a body adds 413, 415 and a validation 422; a query alone adds the 422', () => {
    const app = newApp({ requestTimeoutMs: 0 });
    app.post('/b', { request: { body: type({ a: 'string' }) }, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    app.get('/q', { request: { query: type({ a: 'string' }) }, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    expect(Object.keys(answersOf(app, 0))).toEqual(['400', '403', '413', '415', '422', '431']);
    expect(answersOf(app, 0)[422]).toMatchObject({ problem: 'validation' });
    expect(Object.keys(answersOf(app, 1))).toEqual(['400', '422', '431']);
  });

  test('auth adds 401 (and 403 with scopes), an authenticating hook alone adds 401', () => {
    const app = newApp({ requestTimeoutMs: 0, securitySchemes: { bearer: httpBearerScheme() } });
    const hooks = bearer({ verify: () => true });
    app.get('/a', { auth: { scheme: 'bearer', scopes: ['s'] }, hooks, responses: { 204: {} } }, () => ({
      status: 204,
    }));
    app.get('/b', { hooks, responses: { 204: {} } }, () => ({ status: 204 }));
    expect(Object.keys(answersOf(app, 0))).toEqual(['400', '401', '403', '431']);
    expect(answersOf(app, 0)[401]).toMatchObject({
      headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
    });
    expect(Object.keys(answersOf(app, 1))).toEqual(['400', '401', '431']);
  });

  test('a rate limit declares its 429 through its traits, app-wide or per route, through combinators too', () => {
    const app = newApp({ requestTimeoutMs: 0 });
    app.get('/r', { hooks: every(rateLimit({ windowMs: 1000, max: 1 })), responses: { 204: {} } }, () => ({
      status: 204,
    }));
    app.get(
      '/e',
      { hooks: except(() => false, rateLimit({ windowMs: 1000, max: 1 })), responses: { 204: {} } },
      () => ({
        status: 204,
      }),
    );
    app.get('/n', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(answersOf(app, 0)[429]).toMatchObject({
      headers: { 'Retry-After': { required: true }, RateLimit: { required: true }, 'RateLimit-Policy': {} },
    });
    expect(answersOf(app, 1)[429]).toBeDefined();
    expect(answersOf(app, 2)[429]).toBeUndefined();
    app.use(rateLimit({ windowMs: 1000, max: 1 }));
    expect(answersOf(app, 2)[429]).toBeDefined();
  });

  test('the cross-origin guard adds 403 on state-changing methods only, while it is on', () => {
    const guarded = newApp({ requestTimeoutMs: 0 });
    guarded.delete('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    guarded.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(answersOf(guarded, 0)[403]).toMatchObject({
      description: expect.stringContaining('cross-origin'),
    });
    expect(answersOf(guarded, 1)[403]).toBeUndefined();
    const open = newApp({ requestTimeoutMs: 0, corsCrossOriginGuard: false });
    open.delete('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    expect(answersOf(open, 0)[403]).toBeUndefined();
  });

  test('csrf, waf (block mode), idempotency and autoBan declare what they answer', () => {
    const app = newApp({ requestTimeoutMs: 0, corsCrossOriginGuard: false });
    app.post('/c', { hooks: csrf(), responses: { 204: {} } }, () => ({ status: 204 }));
    app.get('/w', { hooks: waf(), responses: { 204: {} } }, () => ({ status: 204 }));
    app.get('/l', { hooks: waf({ mode: 'log', onMatch: () => {} }), responses: { 204: {} } }, () => ({
      status: 204,
    }));
    app.post('/i', { hooks: idempotency(), responses: { 204: {} } }, () => ({ status: 204 }));
    app.get('/b', { hooks: autoBan({ status: 429 }), responses: { 204: {} } }, () => ({ status: 204 }));
    expect(answersOf(app, 0)[403]).toBeDefined();
    expect(answersOf(app, 1)[403]).toBeDefined();
    expect(answersOf(app, 2)[403]).toBeUndefined();
    expect(answersOf(app, 3)[409]).toBeDefined();
    expect(answersOf(app, 3)[422]).toMatchObject({ problem: 'validation' });
    expect(answersOf(app, 4)[429]).toMatchObject({ headers: { 'Retry-After': { required: true } } });
  });

  test('answers of several layers for one status merge: the first description, every header', () => {
    const app = newApp({ requestTimeoutMs: 0 });
    const first = withHookTraits(
      {},
      { answers: [{ status: 409, description: 'First', headers: { A: { description: 'a', schema: {} } } }] },
    );
    const second = withHookTraits(
      {},
      {
        answers: [
          { status: 409, description: 'Second', headers: { B: { description: 'b', schema: {} } } },
          { status: 400, description: 'Also malformed', problem: 'validation' },
        ],
      },
    );
    app.get('/x', { hooks: [first, second], responses: { 204: {} } }, () => ({ status: 204 }));
    const answers = answersOf(app);
    expect(answers[409]).toMatchObject({ description: 'First' });
    expect(Object.keys((answers[409] as { headers: object }).headers).sort()).toEqual(['A', 'B']);
    expect(answers[400]).toMatchObject({ problem: 'validation' });
  });

  test('refuses a route that is not one of its own', () => {
    const other = newApp();
    other.get('/x', { responses: { 204: {} } }, () => ({ status: 204 }));
    const route = other.registeredRoutes()[0];
    expect(() => newApp().frameworkAnswers(route as never)).toThrow(/registeredRoutes/);
  });
});

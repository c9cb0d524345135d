import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import type { Hooks } from '../types/index.ts';
import { withHookTraits } from '../types/index.ts';
import { App } from './app.ts';
import type { Logger } from '../logger/index.ts';

const Ok = type({ ok: 'boolean' });
const ok = () => ({ status: 200 as const, body: { ok: true } });
const session = withHookTraits({} as Hooks, { usesSession: true });
const csrf = withHookTraits({} as Hooks, { csrfProtection: true });

function warnings(): { logger: Logger; routes: Array<unknown> } {
  const routes: Array<unknown> = [];
  const noop = (): void => {};
  return {
    routes,
    logger: {
      debug: noop,
      info: noop,
      error: noop,
      warn: (_message, fields) => void (fields?.code === 'csrf-missing' && routes.push(fields.route)),
    },
  };
}

describe('BootGuards', () => {
  test('a refused production configuration is checked again once hooks change, and then serves', async () => {
    const app = new App({ logger: false, production: true, behindProxy: 'none' });
    app.post('/change', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    expect((await app.request('/change', { method: 'POST' })).status).toBe(500);
    expect((await app.request('/change', { method: 'POST' })).status).toBe(500);
    app.use(csrf);
    expect((await app.request('/change', { method: 'POST' })).status).toBe(200);
  });

  test('ready() checks the hooks added after the routes were compiled, not the ones they were compiled with', async () => {
    const refused = new App({ logger: false, production: true, behindProxy: 'none' });
    refused.post('/change', { responses: { 200: { body: Ok } } }, ok);
    refused.use(session);
    await expect(refused.ready()).rejects.toThrow(/CSRF/);
    const fixed = new App({ logger: false, production: true, behindProxy: 'none' });
    fixed.post('/change', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    fixed.use(csrf);
    await fixed.ready();
    expect((await fixed.request('/change', { method: 'POST' })).status).toBe(200);
  });

  test('a route added after the first request is checked before the next one', async () => {
    const { logger, routes } = warnings();
    const app = new App({ logger, behindProxy: 'none' });
    app.post('/a', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    expect((await app.request('/a', { method: 'POST' })).status).toBe(200);
    expect(routes).toEqual(['POST /a']);
    app.post('/b', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    expect((await app.request('/a', { method: 'POST' })).status).toBe(200);
    expect(routes).toEqual(['POST /a', 'POST /b']);
  });

  test('the guards see the traits of every layer: constructor hooks, app.use, groups and the route', () => {
    const app = new App({ logger: false, hooks: [csrf], behindProxy: 'none' });
    app.post('/route', { hooks: [session], responses: { 200: { body: Ok } } }, ok);
    app.group('/g', { hooks: [session] }, (g) => g.post('/x', { responses: { 200: { body: Ok } } }, ok));
    expect(app.assertSecureConfig().map((issue) => issue.code)).toEqual([]);
    const bare = new App({ logger: false, behindProxy: 'none' });
    bare.group('/g', { hooks: [session] }, (g) => g.post('/x', { responses: { 200: { body: Ok } } }, ok));
    expect(bare.assertSecureConfig().map((issue) => `${issue.code} ${issue.route}`)).toEqual([
      'csrf-missing POST /g/x',
    ]);
    bare.use(csrf);
    expect(bare.assertSecureConfig()).toEqual([]);
  });
});

import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';

describe('respond', () => {
  test('a string body with a declared text type is sent as is, with the security headers', async () => {
    const app = new App({ logger: false });
    app.get('/csv', { responses: { 200: { body: type('string'), contentType: 'text/csv' } } }, () => ({
      status: 200,
      body: 'a,b',
    }));
    const res = await app.request('/csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('a,b');
  });

  test('a string body with a declared JSON type is JSON text', async () => {
    const app = new App({ logger: false });
    app.get('/s', { responses: { 200: { body: type('string'), contentType: 'application/json' } } }, () => ({
      status: 200,
      body: 'quoted',
    }));
    const res = await app.request('/s');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('"quoted"');
  });

  test('a number body is JSON with the declared type', async () => {
    const app = new App({ logger: false });
    app.get('/n', { responses: { 200: { contentType: 'application/vnd.count+json' } } }, () => ({
      status: 200,
      body: 42,
    }));
    const res = await app.request('/n');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.count+json');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toBe('42');
  });

  test('a route-built response already carries the security headers when onSend sees it', async () => {
    const seen: Array<string | null> = [];
    const app = new App({
      logger: false,
      hooks: { onSend: (response) => void seen.push(response.headers.get('x-content-type-options')) },
    });
    app.get('/csv', { responses: { 200: { body: type('string'), contentType: 'text/csv' } } }, () => ({
      status: 200,
      body: 'a,b',
    }));
    const res = await app.request('/csv');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('a,b');
    expect(seen).toEqual(['nosniff']);
  });

  test('a body JSON cannot encode is a 500 that still carries the security headers', async () => {
    const app = new App({ logger: false });
    app.get('/loop', { responses: { 200: {} } }, () => {
      const loop: Record<string, unknown> = {};
      loop.self = loop;
      return { status: 200, body: loop };
    });
    const res = await app.request('/loop');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).not.toBeNull();
    expect((await res.json()).type).toBe('https://charter.dev/errors/internal');
  });
});

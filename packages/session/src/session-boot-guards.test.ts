// session() declares its traits; the App's boot guards (csrf-missing, weak-secret) act on them.
import { describe, expect, test } from 'bun:test';
import { App, type AppOptions, csrf, hookTraitsOf, InsecureConfigError } from '@charter/core';
import { type } from 'arktype';
import { session } from './session.ts';

const SECRET = 'q8Vd-2nTz!kP4sLw9Xe7Rb3Hc6JmYt1Gf5Ua0Ni2Oe8Wr';
const OLD_SECRET = 'Zt5-pW2qLx8Nv4Rk7Hs1Jd6Fb9GcEa3Mh0Ty8Qo2Iu5Kl';
const Ok = type({ ok: 'boolean' });

/** An app with session() on every route, a GET and a POST; `withCsrf` adds csrf() to both. */
function appWith(options: AppOptions = {}, withCsrf = false, secret: string | string[] = SECRET): App {
  const app = new App({ logger: false, behindProxy: 'none', ...options });
  app.use(session({ secret, cookie: { secure: true } }));
  if (withCsrf) app.use(csrf({ secure: true }));
  app.get('/items', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
  app.post('/items', { responses: { 200: { body: Ok } } }, () => ({ status: 200, body: { ok: true } }));
  return app;
}

const codes = (app: App, production = false) =>
  app.assertSecureConfig({ production }).map((i) => `${i.code} ${i.route}`);

describe('session: boot guards', () => {
  test('declares usesSession and its secrets', () => {
    expect(hookTraitsOf(session({ secret: SECRET }))).toEqual({
      usesSession: true,
      secrets: [{ where: 'session({ secret })', value: SECRET }],
    });
    expect(hookTraitsOf(session({ secret: [SECRET, OLD_SECRET] }))?.secrets).toEqual([
      { where: 'session({ secret[0] })', value: SECRET },
      { where: 'session({ secret[1] })', value: OLD_SECRET },
    ]);
  });

  test('a state-changing route under session() without csrf() is reported, the GET route is not', () => {
    expect(codes(appWith())).toEqual(['csrf-missing POST /items']);
    expect(() => appWith().assertSecureConfig({ production: true })).toThrow(InsecureConfigError);
  });

  test('csrf() on the route satisfies the guard', () => {
    expect(codes(appWith({}, true))).toEqual([]);
    expect(appWith({}, true).assertSecureConfig({ production: true })).toEqual([]);
  });

  test('the App option csrf: "off" silences the guard', () => {
    expect(codes(appWith({ csrf: 'off' }))).toEqual([]);
  });

  test('a weak session secret is reported, and refused in production', () => {
    const shortForProduction = 'k3J9x-Qp2vLm8ZtR4wYb';
    expect(codes(appWith({ csrf: 'off' }, false, shortForProduction))).toEqual([]);
    expect(() =>
      appWith({ csrf: 'off' }, false, shortForProduction).assertSecureConfig({ production: true }),
    ).toThrow('[weak-secret] The secret for session({ secret }) is 20 bytes');
    const issues = appWith({ csrf: 'off' }, false, [SECRET, 'changeme-please-now-1234']).assertSecureConfig();
    expect(issues.map((i) => i.code)).toEqual(['weak-secret']);
    expect(issues[0]?.message).toContain('session({ secret[1] })');
    expect(issues[0]?.message).not.toContain('changeme-please');
  });
});

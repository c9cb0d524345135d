/**
 * `bun examples/better-auth.ts`: starts with no variable set (a random secret for the run, said so on
 * stdout, users in memory), and signs a user up and in as its printed curl lines do.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freePort, type RunningExample, startExample } from './support.ts';

describe('examples/better-auth.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('better-auth.ts', { PORT: String(freePort()) });
  });
  afterAll(() => example?.stop());

  test('starts without BETTER_AUTH_SECRET, says so, and prints what to try', () => {
    expect(example.output()).toContain('BETTER_AUTH_SECRET is not set');
    expect(example.output()).toContain(`Better Auth example listening on ${example.url}`);
    expect(example.output()).toContain(`${example.url}/api/auth/sign-up/email`);
  });

  test('GET /me is 401 without a session, 200 with the cookie sign-up set', async () => {
    const anonymous = await fetch(`${example.url}/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toStartWith('application/problem+json');

    const signUp = await fetch(`${example.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toContain('better-auth.session_token=');

    const me = await fetch(`${example.url}/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
  });
});

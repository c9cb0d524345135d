/**
 * `bun examples/session-login.ts`: a browser's round trip through the login form, by hand: the CSRF
 * cookie and field, the session cookie, a new session id at sign-in, sign-out.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

/** The cookies a browser would keep, by name. */
class Jar {
  readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const hiddenCsrf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

describe('examples/session-login.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('session-login.ts');
  });
  afterAll(() => example?.stop());

  const form = (jar: Jar, fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: jar.header(),
      origin: example.url,
    },
    body: new URLSearchParams(fields).toString(),
  });

  test('starts without SESSION_SECRET, says so, and prints what to try', () => {
    expect(example.output()).toContain('SESSION_SECRET is not set');
    expect(example.output()).toContain(`Login example listening on ${example.url}`);
    expect(example.output()).toContain('ada@example.com');
  });

  test('sign in, see the greeting and /me, sign out', async () => {
    const jar = new Jar();
    const home = await fetch(`${example.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('content-security-policy')).toContain("form-action 'self'");
    jar.store(home);
    const html = await home.text();
    expect(html).toContain('<form method="post" action="/login">');
    const token = hiddenCsrf(html);
    expect(token.length).toBeGreaterThan(20);
    expect(jar.cookies.get('csrf')).toBe(token);

    const wrong = await fetch(
      `${example.url}/login`,
      form(jar, { _csrf: token, email: 'ada@example.com', password: 'wrong' }),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong email or password.');

    const signIn = await fetch(
      `${example.url}/login`,
      form(jar, { _csrf: token, email: 'ada@example.com', password: 'correct horse battery staple' }),
    );
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/');
    jar.store(signIn);
    const sid = jar.cookies.get('sid');
    expect(sid).toBeDefined();
    expect(signIn.headers.getSetCookie().find((c) => c.startsWith('sid='))).toContain('HttpOnly');

    const welcome = await fetch(`${example.url}/`, { headers: { cookie: jar.header() } });
    jar.store(welcome);
    const page = await welcome.text();
    expect(page).toContain('<h1>Hello, Ada</h1>');
    const me = await fetch(`${example.url}/me`, { headers: { cookie: jar.header() } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ id: 'user-1', email: 'ada@example.com' });

    const signOut = await fetch(`${example.url}/logout`, form(jar, { _csrf: hiddenCsrf(page) }));
    expect(signOut.status).toBe(303);
    const after = await fetch(`${example.url}/me`, { headers: { cookie: `sid=${sid}` } });
    expect(after.status).toBe(401);
  });

  test('a form post without the CSRF token is a 403 problem, and signs nobody in', async () => {
    const jar = new Jar();
    jar.store(await fetch(`${example.url}/`));
    const response = await fetch(
      `${example.url}/login`,
      form(jar, { email: 'ada@example.com', password: 'correct horse battery staple' }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
    expect(response.headers.getSetCookie().some((c) => c.startsWith('sid='))).toBe(false);
  });

  test('GET /me without a session is a 401 problem', async () => {
    const response = await fetch(`${example.url}/me`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toStartWith('application/problem+json');
  });
});

/**
 * Sessions with a login form (`charter/session`, `charter/hashing`): GET / shows a sign-in form or,
 * once signed in, a greeting and a sign-out button; POST /login checks the password against its scrypt
 * hash and starts a session under a new id; POST /logout ends it; GET /me is the JSON view for
 * scripts. Both forms carry the CSRF token (`csrf()`), which every state-changing request must send.
 * Run it with `bun examples/session-login.ts` (PORT, default 3000; HOST, default 127.0.0.1;
 * SESSION_SECRET, 32+ random bytes, random for the run when unset) and sign in as
 * ada@example.com / correct horse battery staple.
 */
import { type } from 'arktype';
import { App, csrf, csrfTokenOf } from 'charter';
import { serve } from 'charter/bun';
import { passwordHash, passwordVerify } from 'charter/hashing';
import { requireSession, rotateSession, session, sessionOf } from 'charter/session';

/** The one account of the example; a real app reads these from its database. */
export const DEMO_ACCOUNT = {
  id: 'user-1',
  name: 'Ada',
  email: 'ada@example.com',
  password: 'correct horse battery staple',
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(body: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Sign in</title>
${body}
`;
}

function signInPage(csrfToken: string, error?: string): string {
  return page(`<h1>Sign in</h1>
${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/login">
  <input type="hidden" name="_csrf" value="${escapeHtml(csrfToken)}">
  <p><label>Email <input type="email" name="email" autocomplete="username" required></label></p>
  <p><label>Password <input type="password" name="password" autocomplete="current-password" required></label></p>
  <p><button>Sign in</button></p>
</form>`);
}

function welcomePage(csrfToken: string, name: string): string {
  return page(`<h1>Hello, ${escapeHtml(name)}</h1>
<form method="post" action="/logout">
  <input type="hidden" name="_csrf" value="${escapeHtml(csrfToken)}">
  <button>Sign out</button>
</form>`);
}

const HTML = 'text/html; charset=utf-8';
// No script, forms post back here only.
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; form-action 'self'; base-uri 'none'",
  'cache-control': 'no-store',
};

/** The app; `secret` signs the session cookie (32+ random bytes). */
export async function createLoginApp(secret: string) {
  const accounts = new Map([
    [DEMO_ACCOUNT.email, { ...DEMO_ACCOUNT, hash: await passwordHash(DEMO_ACCOUNT.password) }],
  ]);
  // Verifying an unknown email against this costs what a real check costs: no timing tells them apart.
  const dummyHash = await passwordHash(crypto.randomUUID());

  const app = new App({ title: 'Login example', version: '1.0.0' });
  // Sessions ride on cookies, so state-changing routes need CSRF protection (the boot guard insists).
  app.use([session({ secret }), csrf()]);

  return app
    .get('/', { operationId: 'home', responses: { 200: { contentType: HTML } } }, (ctx) => {
      const user = sessionOf(ctx).user;
      const token = csrfTokenOf(ctx) ?? '';
      const name = user === undefined ? undefined : accounts.get(String(user.claims.email))?.name;
      return {
        status: 200,
        body: name === undefined ? signInPage(token) : welcomePage(token, name),
        headers: PAGE_HEADERS,
      };
    })
    .post(
      '/login',
      {
        operationId: 'login',
        request: { body: type({ email: 'string <= 200', password: 'string <= 200' }) },
        responses: {
          303: { description: 'Signed in: back to the home page' },
          401: { contentType: HTML, description: 'Wrong email or password: the form again' },
        },
      },
      async (ctx) => {
        const account = accounts.get(ctx.body.email.toLowerCase());
        const ok = await passwordVerify(ctx.body.password, account?.hash ?? dummyHash);
        if (account === undefined || !ok) {
          return {
            status: 401,
            body: signInPage(csrfTokenOf(ctx) ?? '', 'Wrong email or password.'),
            headers: PAGE_HEADERS,
          };
        }
        // A new session id on sign-in: an id planted before it (session fixation) is worth nothing.
        rotateSession(ctx, { user: { sub: account.id, claims: { email: account.email } } });
        return { status: 303, body: undefined, headers: { location: '/' } };
      },
    )
    .post(
      '/logout',
      {
        operationId: 'logout',
        // The form's only field is its CSRF token, which csrf() reads from the parsed body.
        request: { body: type({ _csrf: 'string' }) },
        responses: { 303: { description: 'Signed out: back to the home page' } },
      },
      (ctx) => {
        sessionOf(ctx).destroy();
        return { status: 303, body: undefined, headers: { location: '/' } };
      },
    )
    .get(
      '/me',
      {
        operationId: 'me',
        hooks: requireSession(),
        responses: { 200: { body: type({ id: 'string', email: 'string' }) }, 401: {} },
      },
      (ctx) => {
        const user = sessionOf(ctx).user;
        return { status: 200, body: { id: user?.sub ?? '', email: String(user?.claims.email ?? '') } };
      },
    );
}

if (import.meta.main) {
  let secret = process.env.SESSION_SECRET;
  if (secret === undefined && process.env.NODE_ENV !== 'production') {
    secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    console.log('SESSION_SECRET is not set: using a random secret for this run (sessions end with it).');
  }
  const server = await serve(await createLoginApp(secret as string), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Login example listening on ${url}
Try:
  open ${url}/                 # sign in as ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}
  curl -i ${url}/me            # 401 without a session`);
}

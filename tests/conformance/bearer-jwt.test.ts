/**
 * `bearer({ verify })` wrapping `createJwtVerifier(...).verify` (issue 19): a `JwtError` refusing the
 * token (expired, forged, wrong audience...) is a 401 `invalid_token` with the RFC 6750 challenge, and
 * its code goes to the log; a misconfigured verifier (`invalid-key`) and any other throw stay a 500.
 */
import { describe, expect, test } from 'bun:test';
import { App, bearer, type Logger, markCredentialRejection } from '@charter/core';
import { createJwtSigner, createJwtVerifier, JwtError } from '@charter/jwt';

const NOW = 1_700_000_000;
const now = (): number => NOW;
const key = crypto.getRandomValues(new Uint8Array(32));
const signer = createJwtSigner({
  algorithm: 'HS256',
  key,
  now,
  issuer: 'https://auth.test',
  audience: 'api',
});
const verifier = createJwtVerifier({
  algorithms: ['HS256'],
  key,
  now,
  issuer: 'https://auth.test',
  audience: 'api',
});

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields?: Record<string, unknown>;
}

function appWith(verify: (token: string) => Promise<unknown>) {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, fields });
  };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const app = new App({ logger });
  app.get(
    '/me',
    {
      responses: { 200: {} },
      hooks: bearer({ verify: verify as Parameters<typeof bearer>[0]['verify'] }),
    },
    () => ({ status: 200 }),
  );
  return { app, lines };
}

/** The pattern the JWT guide shows: the verifier's payload becomes the principal. */
async function verifyJwt(token: string) {
  const { payload } = await verifier.verify(token);
  return {
    sub: payload.sub,
    scopes: typeof payload.scope === 'string' ? payload.scope : [],
    claims: payload,
  };
}

const get = (app: App, token: string) =>
  app.request('/me', { headers: { authorization: `Bearer ${token}` } });

async function expectInvalidToken(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('www-authenticate')).toBe(
    'Bearer realm="api", error="invalid_token", error_description="The access token is invalid or expired."',
  );
  expect(await response.json()).toMatchObject({
    status: 401,
    detail: 'The access token is invalid or expired.',
  });
}

describe('bearer({ verify }) with createJwtVerifier', () => {
  test('a good token passes, with the payload as the principal; nothing is logged', async () => {
    const { app, lines } = appWith(verifyJwt);
    const response = await get(app, await signer.sign({ scope: 'read' }, { subject: 'ada' }));
    expect(response.status).toBe(200);
    expect(lines.filter((line) => line.message === 'Credentials refused')).toEqual([]);
  });

  const refused: readonly [string, () => Promise<string>][] = [
    [
      'expired',
      () =>
        createJwtSigner({
          algorithm: 'HS256',
          key,
          now: () => NOW - 3600,
          issuer: 'https://auth.test',
          audience: 'api',
        }).sign({}),
    ],
    ['invalid-signature', async () => `${(await signer.sign({})).slice(0, -4)}AAAA`],
    ['invalid-audience', () => signer.sign({}, { audience: 'other' })],
    ['malformed', async () => 'not.a.jwt'],
  ];
  for (const [code, make] of refused) {
    test(`a token refused as ${code} is a 401 invalid_token, and the code is logged`, async () => {
      const { app, lines } = appWith(verifyJwt);
      await expectInvalidToken(await get(app, await make()));
      const logged = lines.filter((line) => line.message === 'Credentials refused');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 'info', fields: { route: 'GET /me', status: 401, code } });
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    });
  }

  test('a misconfigured verifier (invalid-key) is still a 500, not a refused credential', async () => {
    const { app, lines } = appWith(async () => {
      throw new JwtError('invalid-key', 'The key could not be imported for HS256');
    });
    const response = await get(app, 'abc');
    expect(response.status).toBe(500);
    expect(lines.some((line) => line.message === 'Credentials refused')).toBe(false);
  });

  test('an error of your own marked with markCredentialRejection is a 401 too, its code logged', async () => {
    const { app, lines } = appWith(async () => {
      throw markCredentialRejection(Object.assign(new Error('token revoked'), { code: 'revoked' }));
    });
    await expectInvalidToken(await get(app, 'abc'));
    expect(lines.find((line) => line.message === 'Credentials refused')).toMatchObject({
      level: 'info',
      fields: { code: 'revoked', reason: 'token revoked' },
    });
  });

  test('any other error thrown by verify is a 500 naming nothing', async () => {
    const { app } = appWith(async () => {
      throw new Error('database down');
    });
    const response = await get(app, 'abc');
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('database down');
  });
});

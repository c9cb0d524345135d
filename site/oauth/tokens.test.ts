import { describe, expect, test } from 'bun:test';
import { createJwtSigner } from '@charter/jwt';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  ANONYMOUS_SUBJECT,
  createTokenService,
  TOKEN_CLOCK_SKEW_SECONDS,
} from './tokens.ts';

const ORIGIN = 'https://docs.example';
const KEY = new Uint8Array(32).fill(1);
const OTHER_KEY = new Uint8Array(32).fill(2);
const T0 = 1_900_000_000;

function clock(start = T0) {
  const state = { now: start };
  return { state, now: () => state.now };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const partsOf = (token: string) => token.split('.') as [string, string, string];
const decode = (part: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(part, 'base64url').toString());

describe('createTokenService', () => {
  test('issues an RFC 9068 token: typ at+jwt, HS256, and every claim the profile requires', async () => {
    const c = clock();
    const tokens = createTokenService({ origin: `${ORIGIN}/`, key: KEY, now: c.now });
    expect(tokens.origin).toBe(ORIGIN);
    const issued = await tokens.issue({ clientId: 'agent-1', scope: 'docs:read', audience: ORIGIN });
    const [header, payload] = partsOf(issued.accessToken);
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    const claims = decode(payload);
    expect(claims).toEqual({
      scope: 'docs:read',
      client_id: 'agent-1',
      iss: ORIGIN,
      sub: 'agent-1',
      aud: ORIGIN,
      iat: T0,
      exp: T0 + ACCESS_TOKEN_LIFETIME_SECONDS,
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(issued.expiresIn).toBe(3600);
    expect(issued.claims).toEqual(claims as never);
  });

  test('gives a token without client_id the subject anonymous and no client_id claim', async () => {
    const tokens = createTokenService({ origin: ORIGIN, key: KEY });
    const issued = await tokens.issue({ scope: 'docs:read', audience: [ORIGIN, `${ORIGIN}/mcp`] });
    expect(issued.claims.sub).toBe(ANONYMOUS_SUBJECT);
    expect('client_id' in issued.claims).toBe(false);
    expect(issued.claims.aud).toEqual([ORIGIN, `${ORIGIN}/mcp`]);
  });

  test('gives every token a distinct jti', async () => {
    const tokens = createTokenService({ origin: ORIGIN, key: KEY });
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++)
      ids.add((await tokens.issue({ scope: 'docs:read', audience: ORIGIN })).claims.jti);
    expect(ids.size).toBe(20);
  });

  test('verifies a token another replica with the same key issued', async () => {
    const a = createTokenService({ origin: ORIGIN, key: new Uint8Array(KEY) });
    const b = createTokenService({ origin: ORIGIN, key: new Uint8Array(KEY) });
    const issued = await a.issue({ clientId: 'x', scope: 'docs:read', audience: ORIGIN });
    expect(await b.verify(issued.accessToken)).toEqual(issued.claims);
  });

  test('a token is valid until its exp and invalid from that second on', async () => {
    const c = clock();
    const tokens = createTokenService({ origin: ORIGIN, key: KEY, now: c.now });
    const { accessToken } = await tokens.issue({ scope: 'docs:read', audience: ORIGIN });
    c.state.now = T0 + ACCESS_TOKEN_LIFETIME_SECONDS - 1;
    expect(await tokens.verify(accessToken)).toBeDefined();
    c.state.now = T0 + ACCESS_TOKEN_LIFETIME_SECONDS;
    expect(await tokens.verify(accessToken)).toBeUndefined();
  });

  test('tolerates an issuing replica whose clock is ahead, within the iat leeway only', async () => {
    const issuer = clock(T0 + TOKEN_CLOCK_SKEW_SECONDS);
    const verifier = clock(T0);
    const a = createTokenService({ origin: ORIGIN, key: KEY, now: issuer.now });
    const b = createTokenService({ origin: ORIGIN, key: KEY, now: verifier.now });
    const { accessToken } = await a.issue({ scope: 'docs:read', audience: ORIGIN });
    expect(await b.verify(accessToken)).toBeDefined();
    verifier.state.now = T0 - 1;
    expect(await b.verify(accessToken)).toBeUndefined();
  });

  test('honours a custom lifetime', async () => {
    const c = clock();
    const tokens = createTokenService({ origin: ORIGIN, key: KEY, now: c.now, lifetimeSeconds: 60 });
    const issued = await tokens.issue({ scope: 'docs:read', audience: ORIGIN });
    expect(issued.expiresIn).toBe(60);
    c.state.now = T0 + 60;
    expect(await tokens.verify(issued.accessToken)).toBeUndefined();
  });

  describe('verify refuses', () => {
    const tokens = createTokenService({ origin: ORIGIN, key: KEY });
    const good = () => tokens.issue({ clientId: 'c', scope: 'docs:read', audience: ORIGIN });

    test('garbage and non-strings, without throwing', async () => {
      for (const bad of ['', 'abc', 'a.b.c', '...', 'x'.repeat(10_000), 42, null, undefined, {}]) {
        expect(await tokens.verify(bad)).toBeUndefined();
      }
    });

    test('a tampered signature', async () => {
      const [h, p, s] = partsOf((await good()).accessToken);
      const flipped = `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
      expect(await tokens.verify(`${h}.${p}.${flipped}`)).toBeUndefined();
    });

    test('a tampered payload under the original signature', async () => {
      const [h, p, s] = partsOf((await good()).accessToken);
      const claims = decode(p);
      expect(await tokens.verify(`${h}.${b64({ ...claims, scope: 'admin' })}.${s}`)).toBeUndefined();
    });

    test('alg none', async () => {
      const [, p] = partsOf((await good()).accessToken);
      expect(await tokens.verify(`${b64({ alg: 'none', typ: 'at+jwt' })}.${p}.`)).toBeUndefined();
    });

    test('a wrong typ, even correctly signed with the key', async () => {
      const signer = createJwtSigner({ algorithm: 'HS256', key: KEY, issuer: ORIGIN, typ: 'JWT' });
      const token = await signer.sign({ scope: 'docs:read' }, { subject: 's', audience: ORIGIN });
      expect(await tokens.verify(token)).toBeUndefined();
    });

    test('another HMAC algorithm (HS512)', async () => {
      const signer = createJwtSigner({
        algorithm: 'HS512',
        key: new Uint8Array(64).fill(1),
        issuer: ORIGIN,
        typ: 'at+jwt',
      });
      const token = await signer.sign({ scope: 'docs:read' }, { subject: 's', audience: ORIGIN });
      expect(await tokens.verify(token)).toBeUndefined();
    });

    test('a token signed with another key', async () => {
      const other = createTokenService({ origin: ORIGIN, key: OTHER_KEY });
      const { accessToken } = await other.issue({ scope: 'docs:read', audience: ORIGIN });
      expect(await tokens.verify(accessToken)).toBeUndefined();
    });

    test('a token of another issuer, even with the same key', async () => {
      const other = createTokenService({ origin: 'https://evil.example', key: KEY });
      const { accessToken } = await other.issue({ scope: 'docs:read', audience: ORIGIN });
      expect(await tokens.verify(accessToken)).toBeUndefined();
    });

    test('a token for another resource (aud mismatch)', async () => {
      const { accessToken } = await tokens.issue({ scope: 'docs:read', audience: `${ORIGIN}/md` });
      expect(await tokens.verify(accessToken, { audience: [ORIGIN, `${ORIGIN}/mcp`] })).toBeUndefined();
      expect(await tokens.verify(accessToken, { audience: [ORIGIN, `${ORIGIN}/md`] })).toBeDefined();
      expect(await tokens.verify(accessToken)).toBeDefined();
    });

    test('a correctly signed token missing a required claim (scope)', async () => {
      const signer = createJwtSigner({ algorithm: 'HS256', key: KEY, issuer: ORIGIN, typ: 'at+jwt' });
      const token = await signer.sign({}, { subject: 's', audience: ORIGIN });
      expect(await tokens.verify(token)).toBeUndefined();
    });
  });

  test('refuses bad options with errors naming them', () => {
    expect(() => createTokenService({ origin: 'https://docs.example/x', key: KEY })).toThrow(/origin/);
    expect(() => createTokenService({ origin: ORIGIN, key: new Uint8Array(31) })).toThrow(/key/);
    expect(() => createTokenService({ origin: ORIGIN, key: KEY, lifetimeSeconds: 0 })).toThrow(
      /lifetimeSeconds/,
    );
    expect(() => createTokenService({ origin: ORIGIN, key: KEY, now: 5 as never })).toThrow(/now/);
  });

  test('issue refuses an empty scope or audience', async () => {
    const tokens = createTokenService({ origin: ORIGIN, key: KEY });
    await expect(tokens.issue({ scope: '', audience: ORIGIN })).rejects.toThrow(/scope/);
    await expect(tokens.issue({ scope: 'docs:read', audience: [] })).rejects.toThrow(/audience/);
    await expect(tokens.issue({ clientId: '', scope: 'docs:read', audience: ORIGIN })).rejects.toThrow(
      /clientId/,
    );
  });
});

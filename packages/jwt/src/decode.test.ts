import { describe, expect, test } from 'bun:test';
import { assertCriticalHeaders, decodeJws, isRegisteredHeaderName } from './decode.ts';
import { JwtError, type JwtErrorCode } from './errors.ts';
import { encodePart } from './__fixtures__/test-keys.ts';

const SIG = 'c2ln'; // "sig"

function codeOf(run: () => unknown): JwtErrorCode | 'ok' {
  try {
    run();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(JwtError);
    return (error as JwtError).code;
  }
}

describe('decodeJws', () => {
  test('splits a compact JWS into header, claims, signing input and signature bytes', () => {
    const token = `${encodePart({ alg: 'HS256', kid: 'k' })}.${encodePart({ sub: 'u' })}.${SIG}`;
    const decoded = decodeJws(token, 8192);
    expect(decoded.header).toEqual({ alg: 'HS256', kid: 'k' });
    expect(decoded.payload).toEqual({ sub: 'u' });
    expect(new TextDecoder().decode(decoded.signingInput)).toBe(token.slice(0, token.lastIndexOf('.')));
    expect(new TextDecoder().decode(decoded.signature)).toBe('sig');
  });

  test('reports alg none before anything about the claims or signature', () => {
    expect(codeOf(() => decodeJws(`${encodePart({ alg: 'NONE' })}.${encodePart('oops')}.`, 8192))).toBe(
      'alg-none',
    );
  });

  test('refuses a missing or non-string alg, kid, typ or cty as malformed', () => {
    for (const header of [
      {},
      { alg: null },
      { alg: 'HS256', kid: 1 },
      { alg: 'HS256', typ: {} },
      { alg: 'HS256', cty: [] },
    ]) {
      expect(codeOf(() => decodeJws(`${encodePart(header)}.${encodePart({})}.${SIG}`, 8192))).toBe(
        'malformed',
      );
    }
  });

  test('refuses wrong part counts, empty parts and oversize tokens before decoding', () => {
    const h = encodePart({ alg: 'HS256' });
    const p = encodePart({});
    for (const token of [
      `${h}.${p}`,
      `${h}.${p}.${SIG}.${SIG}`,
      `${h}.${p}.`,
      `${h}..${SIG}`,
      `.${p}.${SIG}`,
    ]) {
      expect(codeOf(() => decodeJws(token, 8192))).toBe('malformed');
    }
    const token = `${h}.${p}.${SIG}`;
    expect(codeOf(() => decodeJws(token, token.length))).toBe('ok');
    expect(codeOf(() => decodeJws(token, token.length - 1))).toBe('malformed');
  });

  test('never throws anything but a JwtError', () => {
    for (const input of [undefined, 1, {}, '...', '\u0000.\u0000.\u0000', 'é.é.é', '{}.{}.{}']) {
      expect(['malformed', 'alg-none']).toContain(codeOf(() => decodeJws(input, 8192)));
    }
  });
});

describe('assertCriticalHeaders', () => {
  test('accepts no crit, and a crit of understood names present in the header', () => {
    expect(codeOf(() => assertCriticalHeaders({ alg: 'HS256' }, new Set()))).toBe('ok');
    const header = { alg: 'HS256', crit: ['exp', 'x'], exp: 1, x: 2 };
    expect(codeOf(() => assertCriticalHeaders(header, new Set(['exp', 'x'])))).toBe('ok');
  });

  test('refuses a name it does not understand with crit-unsupported', () => {
    const header = { alg: 'HS256', crit: ['exp', 'x'], exp: 1, x: 2 };
    expect(codeOf(() => assertCriticalHeaders(header, new Set(['exp'])))).toBe('crit-unsupported');
  });

  test('refuses a malformed crit', () => {
    const understood = new Set(['x']);
    for (const crit of [[], 'x', [1], ['x', 'x'], ['kid'], null]) {
      expect(
        codeOf(() => assertCriticalHeaders({ alg: 'HS256', crit: crit as never, x: 1 }, understood)),
      ).toBe('malformed');
    }
    expect(codeOf(() => assertCriticalHeaders({ alg: 'HS256', crit: ['x'] }, understood))).toBe('malformed');
  });

  test('knows the registered JWS header names (RFC 7515 §4.1)', () => {
    for (const name of ['alg', 'jku', 'jwk', 'kid', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'typ', 'cty', 'crit']) {
      expect(isRegisteredHeaderName(name)).toBe(true);
    }
    expect(isRegisteredHeaderName('b64')).toBe(false);
    expect(isRegisteredHeaderName('exp')).toBe(false);
  });
});

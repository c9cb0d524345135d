/**
 * Test helpers (not exported from the package): key pairs, a JWS signer written directly on WebCrypto
 * (independent of @charter/jwt, so the tests do not check the verifier against itself), and a real
 * HTTPS JWKS server, signed by the test CA in tests/fixtures/tls, that can fail and rotate keys.
 */
import { encodeBase64Url } from '@charter/core';
import type { Jwk, JwkSet } from '../jwk-set.ts';
import type { JwksFetch } from '../options.ts';

const TLS_DIR = new URL('../../../../tests/fixtures/tls/', import.meta.url);

type SignAlg = 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA' | 'HS256';

/** A signing key and its public JWK. */
export interface TestKey {
  readonly alg: SignAlg;
  readonly kid: string | undefined;
  readonly privateKey: CryptoKey;
  /** The public JWK with `kid`, `alg` and `use` as a set would publish it. */
  readonly jwk: Jwk;
}

const GENERATE: Record<Exclude<SignAlg, 'HS256'>, RsaHashedKeyGenParams | EcKeyGenParams | Algorithm> = {
  RS256: {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  },
  PS256: { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  EdDSA: { name: 'Ed25519' },
};

const SIGN: Record<Exclude<SignAlg, 'HS256'>, AlgorithmIdentifier | RsaPssParams | EcdsaParams> = {
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  PS256: { name: 'RSA-PSS', saltLength: 32 },
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
  ES384: { name: 'ECDSA', hash: 'SHA-384' },
  EdDSA: { name: 'Ed25519' },
};

/** Generates a key pair; `extra` members are added to the published JWK (e.g. `use`, `key_ops`). */
export async function generateTestKey(
  alg: Exclude<SignAlg, 'HS256'>,
  kid: string | undefined,
  extra: Partial<Jwk> = {},
): Promise<TestKey> {
  const pair = (await crypto.subtle.generateKey(GENERATE[alg], true, ['sign', 'verify'])) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Record<string, unknown>;
  const jwk: Jwk = { kty: exported.kty as string };
  for (const member of ['crv', 'n', 'e', 'x', 'y'] as const) {
    if (typeof exported[member] === 'string') jwk[member] = exported[member] as string;
  }
  if (kid !== undefined) jwk.kid = kid;
  Object.assign(jwk, { alg, use: 'sig' }, extra);
  return { alg, kid, privateKey: pair.privateKey, jwk };
}

/** The private JWK of a key (to build a set that leaks private members). */
export async function privateJwkOf(key: TestKey): Promise<Jwk> {
  return { ...((await crypto.subtle.exportKey('jwk', key.privateKey)) as Jwk), kid: key.kid };
}

/** A JWK set of these keys. */
export const jwkSet = (...keys: TestKey[]): JwkSet => ({ keys: keys.map((key) => key.jwk) });

const encoder = new TextEncoder();

/** Base64url without padding (RFC 4648 §5), of bytes or of UTF-8 text (the core's encoder). */
export function base64url(input: Uint8Array | string): string {
  return encodeBase64Url(typeof input === 'string' ? encoder.encode(input) : input);
}

/** ASCII(BASE64URL(header) || '.' || BASE64URL(payload)): the JWS signing input (RFC 7515 §5.1). */
function signingInput(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
}

/** Signs the compact JWS `header.payload` with WebCrypto `params` (RFC 7515 §7.1). */
async function signCompact(
  params: AlgorithmIdentifier | RsaPssParams | EcdsaParams,
  key: CryptoKey,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
): Promise<string> {
  const input = signingInput(header, payload);
  const signature = await crypto.subtle.sign(params, key, encoder.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** Signs a compact JWS (RFC 7515 §7.1). `header` overrides the default `{ alg, kid, typ: 'JWT' }`. */
export async function signToken(
  key: TestKey,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const protectedHeader = {
    alg: key.alg,
    typ: 'JWT',
    ...(key.kid === undefined ? {} : { kid: key.kid }),
    ...header,
  };
  return signCompact(SIGN[key.alg as Exclude<SignAlg, 'HS256'>], key.privateKey, protectedHeader, payload);
}

/** An HS256 token signed with `secret` (for the algorithm-confusion test). */
export async function signHs256(
  secret: Uint8Array<ArrayBuffer>,
  payload: Record<string, unknown>,
  header: Record<string, unknown>,
): Promise<string> {
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return signCompact({ name: 'HMAC' }, key, { alg: 'HS256', ...header }, payload);
}

/** An unsigned `alg: none` token (RFC 7519 §6.1). */
export function unsecuredToken(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  return `${signingInput({ alg: 'none', ...header }, payload)}.`;
}

/** Replaces the last character of the payload segment: the signature no longer matches. */
export function tamper(token: string): string {
  const [head, payload, signature] = token.split('.') as [string, string, string];
  const decoded = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as Record<
    string,
    unknown
  >;
  return `${head}.${base64url(JSON.stringify({ ...decoded, sub: `${String(decoded.sub)}-admin` }))}.${signature}`;
}

/** A controllable clock in milliseconds, starting at a fixed instant. */
export function testClock(start = Date.UTC(2030, 0, 1)): {
  now: () => number;
  advance(seconds: number): void;
} {
  let current = start;
  return {
    now: () => current,
    advance(seconds) {
      current += seconds * 1000;
    },
  };
}

/** What the JWKS server answers: the set, a failure status, or a custom Response. */
export type JwksServerMode = 'ok' | 'down' | 'malformed' | 'huge' | 'redirect' | 'slow';

/** A real HTTPS server publishing a JWK set; set `mode` and `set` to make it fail or rotate keys. */
export interface JwksServer {
  readonly url: string;
  /** Requests served so far. */
  readonly hits: number;
  /** The last request's headers. */
  readonly lastHeaders: Headers | undefined;
  set: JwkSet | Record<string, unknown>;
  mode: JwksServerMode;
  /** Extra response headers, e.g. `cache-control`. */
  headers: Record<string, string>;
  /** A fetch that trusts the test CA. */
  readonly fetch: JwksFetch;
  stop(): Promise<void>;
}

/** Starts a JWKS server on an ephemeral port of localhost, with TLS from the test CA. */
export async function startJwksServer(set: JwkSet): Promise<JwksServer> {
  const [cert, key, ca] = await Promise.all(
    ['server.crt', 'server.key', 'ca.crt'].map((name) => Bun.file(new URL(name, TLS_DIR)).text()),
  );
  let hits = 0;
  let lastHeaders: Headers | undefined;
  const state: Pick<JwksServer, 'set' | 'mode' | 'headers'> = { set, mode: 'ok', headers: {} };
  const server = Bun.serve({
    port: 0,
    hostname: 'localhost',
    tls: { cert, key },
    async fetch(request) {
      hits++;
      lastHeaders = request.headers;
      switch (state.mode) {
        case 'down':
          return new Response('unavailable', { status: 503 });
        case 'malformed':
          return new Response('{"keys": "not an array"}', {
            headers: { 'content-type': 'application/json' },
          });
        case 'huge':
          return new Response(JSON.stringify({ keys: [], pad: 'x'.repeat(300_000) }), {
            headers: { 'content-type': 'application/json' },
          });
        case 'redirect':
          return new Response(null, { status: 302, headers: { location: '/elsewhere' } });
        case 'slow':
          await Bun.sleep(500);
          return Response.json(state.set);
        default:
          return new Response(JSON.stringify(state.set), {
            headers: { 'content-type': 'application/jwk-set+json', ...state.headers },
          });
      }
    },
  });
  const trustingFetch: JwksFetch = (input, init) => fetch(input, { ...init, tls: { ca } } as RequestInit);
  return Object.defineProperties(state as JwksServer, {
    url: { value: `https://localhost:${server.port}/.well-known/jwks.json` },
    hits: { get: () => hits },
    lastHeaders: { get: () => lastHeaders },
    fetch: { value: trustingFetch },
    stop: { value: () => server.stop(true) },
  });
}

import { describe, expect, test } from 'bun:test';
import { assertScriptNonce, assertSerialisedOrigin, docsContentSecurityPolicy } from './csp.ts';

const HASH = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
const NONCE = 'rAnd0mNonceOf128bitsXYZ';

describe('docsContentSecurityPolicy', () => {
  test('allows nothing but same-origin loads without options', () => {
    expect(docsContentSecurityPolicy()).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
    );
  });

  test('writes asset origins, connect origins, nonce, hashes and both relaxations where they belong', () => {
    expect(
      docsContentSecurityPolicy({
        assetOrigins: ['https://cdn.jsdelivr.net', 'https://cdn.jsdelivr.net'],
        connectOrigins: ['https://api.example.com', 'wss://live.example.com'],
        scriptNonce: NONCE,
        scriptHashes: [HASH],
        allowInlineStyles: true,
        allowBlobWorkers: true,
      }),
    ).toBe(
      "default-src 'none'; " +
        `script-src 'self' https://cdn.jsdelivr.net 'nonce-${NONCE}' '${HASH}'; ` +
        "style-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; " +
        "img-src 'self' data: https://cdn.jsdelivr.net; " +
        "font-src 'self' data: https://cdn.jsdelivr.net; " +
        "connect-src 'self' https://api.example.com wss://live.example.com; " +
        'worker-src blob:; ' +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
    );
  });

  test('leaves the relaxations out when they are false', () => {
    const policy = docsContentSecurityPolicy({ allowInlineStyles: false, allowBlobWorkers: false });
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('worker-src');
    expect(policy).not.toContain('unsafe-eval');
  });

  test('refuses unknown options and options of the wrong type', () => {
    expect(() => docsContentSecurityPolicy({ allowInlineStyle: true } as never)).toThrow(
      'docsContentSecurityPolicy has no option "allowInlineStyle"',
    );
    expect(() => docsContentSecurityPolicy({ allowBlobWorkers: 'yes' } as never)).toThrow(
      'allowBlobWorkers must be a boolean',
    );
    expect(() => docsContentSecurityPolicy({ assetOrigins: 'https://a.example' } as never)).toThrow(
      'assetOrigins must be an array of origins',
    );
    expect(() => docsContentSecurityPolicy({ scriptHashes: ["'unsafe-inline'"] })).toThrow(
      'scriptHashes[0] must start with sha256-',
    );
    expect(() => docsContentSecurityPolicy({ scriptNonce: 'short' })).toThrow('at least 128 bits');
    expect(() => docsContentSecurityPolicy(null as never)).toThrow('must be an object');
  });

  test('refuses origins that would inject sources or directives into the policy', () => {
    const attempts = [
      "https://a.example; script-src 'unsafe-inline'",
      'https://a.example,https://b.example',
      "https://a.example 'unsafe-eval'",
      'https://a.example;',
      'https://a;b.example',
      "'self'",
      '*',
      'https:',
    ];
    for (const origin of attempts) {
      expect(() => docsContentSecurityPolicy({ assetOrigins: [origin] })).toThrow(TypeError);
      expect(() => docsContentSecurityPolicy({ connectOrigins: [origin] })).toThrow(TypeError);
    }
  });
});

describe('assertSerialisedOrigin', () => {
  test('accepts http(s) and ws(s) origins as URL#origin writes them', () => {
    for (const origin of [
      'https://cdn.jsdelivr.net',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'wss://live.example.com',
      'https://xn--bcher-kva.example',
    ]) {
      expect(() => assertSerialisedOrigin(origin, 'o')).not.toThrow();
    }
  });

  test('refuses paths, default ports, upper case, other schemes and non-strings', () => {
    const cases: [unknown, string][] = [
      ['https://cdn.example.com/', 'no path'],
      ['https://cdn.example.com/npm', 'no path'],
      ['https://cdn.example.com:443', 'no default port'],
      ['https://CDN.example.com', 'lower case'],
      ['ftp://files.example.com', 'serialised origin'],
      ['data:', 'serialised origin'],
      ['https://user@cdn.example.com', 'serialised origin'],
      ['https://cdn.example.com\n', 'must not contain whitespace'],
      ['https://"x".example', 'must not contain whitespace, quotes'],
      [42, 'must be an origin string'],
      ['', 'must be an origin string'],
    ];
    for (const [origin, message] of cases) {
      expect(() => assertSerialisedOrigin(origin, 'assetOrigins[0]')).toThrow(message);
    }
  });
});

describe('assertScriptNonce', () => {
  test('accepts base64 and base64url nonces of at least 128 bits', () => {
    expect(() => assertScriptNonce(NONCE, 'scriptNonce')).not.toThrow();
    expect(() => assertScriptNonce('abcdefghijklmnopqrstuv-_', 'scriptNonce')).not.toThrow();
    expect(() => assertScriptNonce('abcdefghijklmnopqrstuvwx==', 'scriptNonce')).not.toThrow();
  });

  test('refuses short nonces, quotes, spaces, misplaced padding and non-strings', () => {
    expect(() => assertScriptNonce('abc', 'scriptNonce')).toThrow('scriptNonce must carry at least 128 bits');
    expect(() => assertScriptNonce(`${NONCE}' 'unsafe-inline`, 'scriptNonce')).toThrow('base64 or base64url');
    expect(() => assertScriptNonce(`${NONCE} x`, 'scriptNonce')).toThrow('base64 or base64url');
    expect(() => assertScriptNonce(`${NONCE}=x`, 'scriptNonce')).toThrow('base64 or base64url');
    expect(() => assertScriptNonce(`${NONCE}===`, 'scriptNonce')).toThrow('more than two "="');
    expect(() => assertScriptNonce(123, 'scriptNonce')).toThrow('scriptNonce must be a string');
  });
});

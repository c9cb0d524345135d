import { describe, expect, test } from 'bun:test';
import type { AuthSpec } from '../types/index.ts';
import {
  apiKeyScheme,
  assertAuthSpec,
  assertSecurityScheme,
  httpBasicScheme,
  httpBearerScheme,
  mutualTlsScheme,
  type OAuthFlows,
  oauth2Scheme,
  openIdConnectScheme,
  PAYLOAD_AUTH_EXTENSION,
  requiresPayloadAuth,
  type SecurityScheme,
  toOpenAPISecurityScheme,
} from './schemes.ts';

const FLOWS: OAuthFlows = {
  authorizationCode: {
    authorizationUrl: 'https://id.example/authorize',
    tokenUrl: 'https://id.example/token',
    refreshUrl: 'https://id.example/token',
    scopes: { 'notes:read': 'Read notes', 'notes:write': 'Write notes' },
  },
  clientCredentials: { tokenUrl: 'https://id.example/token', scopes: { admin: 'Administer' } },
  implicit: { authorizationUrl: 'https://id.example/authorize', scopes: {} },
  password: { tokenUrl: 'https://id.example/token', scopes: {} },
};

describe('http schemes', () => {
  test('httpBearerScheme builds a frozen http bearer scheme', () => {
    const scheme = httpBearerScheme({ bearerFormat: 'JWT', description: 'Access tokens' });
    expect(scheme).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Access tokens',
    });
    expect(Object.isFrozen(scheme)).toBe(true);
    expect(httpBearerScheme()).toEqual({ type: 'http', scheme: 'bearer' });
  });

  test('requirePayloadAuth sets the extension; otherwise it is left out', () => {
    const signed = httpBearerScheme({ requirePayloadAuth: true });
    expect(signed).toEqual({ type: 'http', scheme: 'bearer', 'x-charter-require-payload-auth': true });
    expect(PAYLOAD_AUTH_EXTENSION).toBe('x-charter-require-payload-auth');
    expect(requiresPayloadAuth(signed)).toBe(true);
    expect(requiresPayloadAuth(httpBearerScheme({ requirePayloadAuth: false }))).toBe(false);
    expect(PAYLOAD_AUTH_EXTENSION in httpBearerScheme({ requirePayloadAuth: false })).toBe(false);
    expect(() => httpBearerScheme({ requirePayloadAuth: 'yes' as never })).toThrow(/"requirePayloadAuth"/);
  });

  test('httpBasicScheme builds an http basic scheme', () => {
    expect(httpBasicScheme({ description: 'Staff' })).toEqual({
      type: 'http',
      scheme: 'basic',
      description: 'Staff',
    });
  });

  test('a description that is not a string is refused', () => {
    expect(() => httpBasicScheme({ description: 7 as never })).toThrow(/httpBasicScheme: description/);
  });
});

describe('apiKeyScheme', () => {
  test('builds a scheme for each location', () => {
    expect(apiKeyScheme({ in: 'header', name: 'X-API-Key' })).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(apiKeyScheme({ in: 'query', name: 'api_key' }).in).toBe('query');
    expect(apiKeyScheme({ in: 'cookie', name: 'key', requirePayloadAuth: true })).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'key',
      'x-charter-require-payload-auth': true,
    });
  });

  test('refuses a bad location, an empty name, or a name invalid for its location', () => {
    expect(() => apiKeyScheme({ in: 'body' as never, name: 'k' })).toThrow(/apiKeyScheme: in/);
    expect(() => apiKeyScheme({ in: 'header', name: '' })).toThrow(
      /apiKeyScheme: name must be a non-empty string/,
    );
    expect(() => apiKeyScheme({ in: 'header', name: 'X API' })).toThrow(/apiKeyScheme: name/);
    expect(() => apiKeyScheme({ in: 'cookie', name: 'a=b' })).toThrow(/apiKeyScheme: name/);
    expect(() => apiKeyScheme({ in: 'query', name: 'a b' })).toThrow(/apiKeyScheme: name/);
  });
});

describe('oauth2Scheme', () => {
  test('builds a scheme with all four flows', () => {
    const scheme = oauth2Scheme({ flows: FLOWS, description: 'OAuth' });
    expect(scheme).toEqual({ type: 'oauth2', description: 'OAuth', flows: FLOWS });
    expect(Object.isFrozen(scheme.flows.authorizationCode?.scopes)).toBe(true);
    expect(scheme.flows).not.toBe(FLOWS);
  });

  test('accepts http endpoints only on loopback hosts (development identity providers)', () => {
    for (const host of ['localhost', 'auth.localhost', '127.0.0.1', '127.8.9.10', '[::1]']) {
      const tokenUrl = `http://${host}:8080/token`;
      expect(oauth2Scheme({ flows: { clientCredentials: { tokenUrl, scopes: {} } } }).type).toBe('oauth2');
    }
  });

  test('refuses endpoints that are not absolute https URLs (RFC 6749 §3.1, §3.2)', () => {
    const bad = [
      'http://id.example/token',
      'http://127.0.0.1.example/token',
      '/token',
      'id.example/token',
      'ftp://id.example/token',
      'https://user:pass@id.example/token',
      'https://id.example/token#frag',
      '',
    ];
    for (const tokenUrl of bad) {
      expect(() => oauth2Scheme({ flows: { clientCredentials: { tokenUrl, scopes: {} } } })).toThrow(
        /oauth2Scheme: flows\.clientCredentials\.tokenUrl/,
      );
    }
  });

  test('each flow needs its own URLs', () => {
    const scopes = {};
    const cases: [OAuthFlows, RegExp][] = [
      [
        { authorizationCode: { authorizationUrl: 'https://a.example/a', scopes } as never },
        /authorizationCode\.tokenUrl/,
      ],
      [
        { authorizationCode: { tokenUrl: 'https://a.example/t', scopes } as never },
        /authorizationCode\.authorizationUrl/,
      ],
      [{ implicit: { scopes } as never }, /implicit\.authorizationUrl/],
      [{ password: { scopes } as never }, /password\.tokenUrl/],
      [{ clientCredentials: { scopes } as never }, /clientCredentials\.tokenUrl/],
    ];
    for (const [flows, message] of cases) expect(() => oauth2Scheme({ flows })).toThrow(message);
  });

  test('refuses a member a flow does not have (a token URL on the implicit flow)', () => {
    const implicit = { authorizationUrl: 'https://a.example/a', tokenUrl: 'https://a.example/t', scopes: {} };
    expect(() => oauth2Scheme({ flows: { implicit } as never })).toThrow(
      /flows\.implicit has an unknown member "tokenUrl"/,
    );
  });

  test('checks refreshUrl, scopes, and that there is at least one known flow', () => {
    const tokenUrl = 'https://a.example/t';
    expect(() =>
      oauth2Scheme({ flows: { password: { tokenUrl, refreshUrl: 'http://a.example', scopes: {} } } }),
    ).toThrow(/password\.refreshUrl/);
    expect(() => oauth2Scheme({ flows: { password: { tokenUrl } as never } })).toThrow(/password\.scopes/);
    expect(() => oauth2Scheme({ flows: { password: { tokenUrl, scopes: { 'two words': 'x' } } } })).toThrow(
      /scope/,
    );
    expect(() => oauth2Scheme({ flows: { password: { tokenUrl, scopes: { a: 1 as never } } } })).toThrow(
      /scopes\.a/,
    );
    expect(() => oauth2Scheme({ flows: {} })).toThrow(/at least one/);
    expect(() => oauth2Scheme({ flows: { deviceCode: {} } as never })).toThrow(/unknown member "deviceCode"/);
    expect(() => oauth2Scheme({} as never)).toThrow(/flows/);
  });
});

describe('openIdConnectScheme and mutualTlsScheme', () => {
  test('openIdConnectScheme needs an absolute https discovery URL', () => {
    const url = 'https://id.example/.well-known/openid-configuration';
    expect(openIdConnectScheme({ openIdConnectUrl: url })).toEqual({
      type: 'openIdConnect',
      openIdConnectUrl: url,
    });
    expect(openIdConnectScheme({ openIdConnectUrl: 'http://localhost:8080/realms/dev' }).type).toBe(
      'openIdConnect',
    );
    expect(() => openIdConnectScheme({ openIdConnectUrl: 'http://id.example/x' })).toThrow(
      /openIdConnectUrl/,
    );
    expect(() => openIdConnectScheme({ openIdConnectUrl: 'not a url' })).toThrow(/openIdConnectUrl/);
  });

  test('mutualTlsScheme builds the OpenAPI 3.1 mutualTLS type', () => {
    expect(mutualTlsScheme()).toEqual({ type: 'mutualTLS' });
    expect(mutualTlsScheme({ description: 'Client certificates' }).description).toBe('Client certificates');
  });
});

describe('toOpenAPISecurityScheme', () => {
  test('returns a fresh plain object in specification order, extensions last', () => {
    const scheme = oauth2Scheme({ flows: FLOWS, description: 'd', requirePayloadAuth: true });
    const out = toOpenAPISecurityScheme(scheme);
    expect(out).toEqual(JSON.parse(JSON.stringify(scheme)));
    expect(Object.keys(out)).toEqual(['type', 'description', 'flows', 'x-charter-require-payload-auth']);
    expect(Object.keys(out.flows as object)).toEqual([
      'implicit',
      'password',
      'clientCredentials',
      'authorizationCode',
    ]);
    expect(Object.isFrozen(out)).toBe(false);
    (out.flows as { password: { scopes: Record<string, string> } }).password.scopes.x = 'y';
    expect(scheme.flows.password?.scopes).toEqual({});
  });

  test('validates a hand-written scheme and keeps its other x- extensions', () => {
    const written = { type: 'http', scheme: 'Bearer', 'x-internal-id': { n: 1 } } as SecurityScheme;
    expect(toOpenAPISecurityScheme(written)).toEqual({
      type: 'http',
      scheme: 'Bearer',
      'x-internal-id': { n: 1 },
    });
  });

  test('refuses an invalid hand-written scheme with a TypeError', () => {
    const bad: unknown[] = [
      null,
      { type: 'nope' },
      { type: 'http' },
      { type: 'http', scheme: 'two words' },
      { type: 'http', scheme: 'bearer', bearerformat: 'JWT' },
      { type: 'http', scheme: 'basic', bearerFormat: 'JWT' },
      { type: 'apiKey', in: 'header' },
      { type: 'mutualTLS', name: 'x' },
      { type: 'mutualTLS', [PAYLOAD_AUTH_EXTENSION]: 'true' },
      { type: 'mutualTLS', 'x-big': 1n },
    ];
    for (const scheme of bad) expect(() => toOpenAPISecurityScheme(scheme as never)).toThrow(TypeError);
  });
});

describe('assertSecurityScheme', () => {
  test('names where the scheme came from', () => {
    expect(() => assertSecurityScheme({ type: 'nope' }, 'securitySchemes.bad')).toThrow(
      /^securitySchemes\.bad: type/,
    );
    expect(() => assertSecurityScheme(httpBearerScheme(), 'securitySchemes.ok')).not.toThrow();
  });
});

describe('assertAuthSpec', () => {
  const schemes = {
    bearerAuth: httpBearerScheme(),
    signed: httpBearerScheme({ requirePayloadAuth: true }),
    oauth: oauth2Scheme({ flows: FLOWS }),
  };
  const check =
    (auth: unknown, where = 'GET /x') =>
    () =>
      assertAuthSpec(auth as AuthSpec, schemes, where);
  const checkUndeclared = (auth: unknown) => () => assertAuthSpec(auth as AuthSpec, undefined, 'GET /x');

  test('accepts a spec naming a declared scheme with valid scopes', () => {
    expect(check({ scheme: 'bearerAuth', scopes: ['anything:goes'], payload: false })).not.toThrow();
    expect(check({ scheme: 'oauth', scopes: ['notes:read', 'admin'] })).not.toThrow();
    expect(checkUndeclared({ scheme: 'undeclared-but-no-list', scopes: ['a'] })).not.toThrow();
  });

  test('refuses an unknown scheme, naming where and the declared ones', () => {
    expect(check({ scheme: 'nope' }, 'GET /users')).toThrow(
      'GET /users: auth.scheme "nope" is not a declared security scheme (declared: bearerAuth, signed, oauth)',
    );
    expect(check({ scheme: 'toString' })).toThrow(/not a declared/);
    expect(checkUndeclared({ scheme: '' })).toThrow(/auth\.scheme/);
    expect(checkUndeclared({ scheme: 'x', scopes: ['a b'] })).toThrow(/auth\.scopes/);
  });

  test('refuses scopes that are not non-empty scope tokens, and oauth2 scopes no flow declares', () => {
    expect(check({ scheme: 'bearerAuth', scopes: [''] })).toThrow(/auth\.scopes/);
    expect(check({ scheme: 'bearerAuth', scopes: ['a b'] })).toThrow(/auth\.scopes/);
    expect(check({ scheme: 'bearerAuth', scopes: 'a' })).toThrow(/auth\.scopes/);
    expect(check({ scheme: 'oauth', scopes: ['notes:delete'] })).toThrow(
      /no flow of the oauth2 scheme "oauth"/,
    );
  });

  test('refuses payload: false on a scheme that requires payload auth', () => {
    expect(check({ scheme: 'signed', payload: false }, 'POST /hook')).toThrow(
      /^POST \/hook: auth\.payload false is refused: .*x-charter-require-payload-auth/,
    );
    expect(check({ scheme: 'signed' })).not.toThrow();
    expect(check({ scheme: 'signed', payload: 'no' })).toThrow(/auth\.payload must be a boolean/);
  });

  test('refuses unknown members, so a misspelt "scope" cannot drop the requirement', () => {
    expect(check({ scheme: 'bearerAuth', scope: ['admin'] })).toThrow(/unknown member "scope"/);
    expect(check(null)).toThrow(/auth must be an object/);
  });
});

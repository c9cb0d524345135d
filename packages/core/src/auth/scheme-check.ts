/**
 * Checks a Security Scheme Object (OAS 3.1.1 §4.8.27) and a route's `auth` against the declared
 * schemes, and copies a scheme into a fresh plain object. Every failure is a TypeError that names
 * where the mistake is, raised at build or registration time, never per request.
 */
import { API_KEY_LOCATIONS, type ApiKeyLocation, apiKeyNameProblem, isScopeToken } from './credentials.ts';
import { PAYLOAD_AUTH_EXTENSION, type SecurityScheme } from './scheme-types.ts';
import { isHttpToken } from '../security/header-guards.ts';
import type { AuthSpec } from '../types/index.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isExtension = (key: string): boolean => key.startsWith('x-');

/** Members each type allows beside `type`, `description` and `x-*` extensions. */
const MEMBERS: Readonly<Record<SecurityScheme['type'], readonly string[]>> = {
  http: ['scheme', 'bearerFormat'],
  apiKey: ['in', 'name'],
  oauth2: ['flows'],
  openIdConnect: ['openIdConnectUrl'],
  mutualTLS: [],
};

type FlowName = 'implicit' | 'password' | 'clientCredentials' | 'authorizationCode';

/** OAS 3.1.1 §4.8.29 order, and the URLs each flow requires (RFC 6749 §4.1-§4.4 endpoints). */
const FLOWS: Readonly<Record<FlowName, readonly ('authorizationUrl' | 'tokenUrl')[]>> = {
  implicit: ['authorizationUrl'],
  password: ['tokenUrl'],
  clientCredentials: ['tokenUrl'],
  authorizationCode: ['authorizationUrl', 'tokenUrl'],
};
const FLOW_NAMES = Object.keys(FLOWS) as FlowName[];
const FLOW_URLS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

/** Loopback host names and addresses (RFC 6761 §6.3 `localhost`, 127.0.0.0/8, ::1), as `URL` prints them. */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]') return true;
  const octets = hostname.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => o !== '' && /^\d+$/.test(o));
}

/**
 * Why `value` is not an acceptable endpoint URL, or undefined. OAuth endpoints MUST use TLS (RFC 6749
 * §3.1 authorization endpoint, §3.2 token endpoint; RFC 9700 assumes it throughout), as must the OpenID
 * Connect Discovery document that names them: absolute `https` URLs, with `http` allowed only on a
 * loopback host so a local identity provider works in development. No user info (a credential in a
 * URL leaks everywhere the URL goes) and no fragment (RFC 6749 §3.1, §3.2 forbid one).
 */
function urlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'must be an absolute URL string';
  if (value.includes('#')) return 'must not have a fragment (RFC 6749 §3.1, §3.2)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must use https (http only on a loopback host), since the endpoints carry credentials and tokens';
}

function fail(where: string, path: string, problem: string): never {
  throw new TypeError(`${where}: ${path} ${problem}`);
}

function checkUrl(where: string, path: string, value: unknown): void {
  const problem = urlProblem(value);
  if (problem !== undefined) fail(where, path, `${problem}; got ${JSON.stringify(value)}`);
}

function checkKeys(where: string, path: string, value: Json, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(where, path, `has an unknown member ${JSON.stringify(key)}`);
  }
}

function checkScopes(where: string, path: string, scopes: unknown): void {
  if (!isObject(scopes)) fail(where, path, 'must be a map of scope name to description (it may be empty)');
  for (const [name, description] of Object.entries(scopes)) {
    if (!isScopeToken(name))
      fail(where, path, `has ${JSON.stringify(name)}, which is not an RFC 6749 §3.3 scope`);
    if (typeof description !== 'string') fail(where, `${path}.${name}`, 'must be a description string');
  }
}

function checkFlows(where: string, flows: unknown): void {
  if (!isObject(flows)) fail(where, 'flows', 'must be an object with at least one flow');
  checkKeys(where, 'flows', flows, FLOW_NAMES);
  const present = FLOW_NAMES.filter((name) => flows[name] !== undefined);
  if (present.length === 0) fail(where, 'flows', `needs at least one of ${FLOW_NAMES.join(', ')}`);
  for (const name of present) {
    const flow = flows[name];
    const path = `flows.${name}`;
    if (!isObject(flow)) fail(where, path, 'must be an object');
    const required = FLOWS[name];
    checkKeys(where, path, flow, [...required, 'refreshUrl', 'scopes']);
    for (const key of required) checkUrl(where, `${path}.${key}`, flow[key]);
    if (flow.refreshUrl !== undefined) checkUrl(where, `${path}.refreshUrl`, flow.refreshUrl);
    checkScopes(where, `${path}.scopes`, flow.scopes);
  }
}

function checkExtension(where: string, key: string, value: unknown): void {
  if (key === PAYLOAD_AUTH_EXTENSION) {
    if (value !== undefined && typeof value !== 'boolean') fail(where, key, 'must be a boolean');
    return;
  }
  try {
    JSON.stringify(value);
  } catch {
    fail(where, key, 'must be a JSON value');
  }
}

/**
 * Throws a TypeError naming `where` unless `value` is a valid Security Scheme Object: a known `type`
 * with its required members and no unknown ones (a misspelt member would silently vanish), valid
 * names, URLs and scopes, and a boolean `x-charter-require-payload-auth`.
 */
export function assertSecurityScheme(value: unknown, where: string): asserts value is SecurityScheme {
  if (!isObject(value)) throw new TypeError(`${where}: a security scheme must be an object`);
  const type = value.type as SecurityScheme['type'];
  if (typeof type !== 'string' || !Object.hasOwn(MEMBERS, type)) {
    fail(where, 'type', `must be one of ${Object.keys(MEMBERS).join(', ')}; got ${JSON.stringify(type)}`);
  }
  const allowed = ['type', 'description', ...MEMBERS[type]];
  for (const key of Object.keys(value)) {
    if (isExtension(key)) checkExtension(where, key, value[key]);
    else if (!allowed.includes(key)) fail(where, key, `is not a member of a ${type} security scheme`);
  }
  if (value.description !== undefined && typeof value.description !== 'string') {
    fail(where, 'description', 'must be a string');
  }
  switch (type) {
    case 'http': {
      const scheme = value.scheme;
      // An auth-scheme name is an RFC 9110 §5.6.2 token (§11.1).
      if (typeof scheme !== 'string' || !isHttpToken(scheme)) {
        fail(where, 'scheme', 'must be an HTTP authentication scheme name (a token), e.g. "bearer"');
      }
      if (value.bearerFormat !== undefined) {
        if (typeof value.bearerFormat !== 'string') fail(where, 'bearerFormat', 'must be a string');
        if (scheme.toLowerCase() !== 'bearer')
          fail(where, 'bearerFormat', 'applies only to the bearer scheme');
      }
      return;
    }
    case 'apiKey': {
      const location = value.in as ApiKeyLocation;
      if (!API_KEY_LOCATIONS.includes(location)) fail(where, 'in', 'must be "header", "query" or "cookie"');
      const problem = apiKeyNameProblem(location, value.name);
      if (problem !== undefined) fail(where, 'name', problem);
      return;
    }
    case 'oauth2':
      return checkFlows(where, value.flows);
    case 'openIdConnect':
      return checkUrl(where, 'openIdConnectUrl', value.openIdConnectUrl);
    case 'mutualTLS':
      return;
  }
}

function copyFlows(flows: Json): Json {
  const out: Json = {};
  for (const name of FLOW_NAMES) {
    const flow = flows[name] as Json | undefined;
    if (flow === undefined) continue;
    const copy: Json = {};
    for (const key of FLOW_URLS) if (flow[key] !== undefined) copy[key] = flow[key];
    copy.scopes = { ...(flow.scopes as Json) };
    out[name] = copy;
  }
  return out;
}

/**
 * A fresh plain copy of a valid scheme: `type`, `description`, the type's members in specification
 * order, then extensions (JSON-copied). Members whose value is undefined are left out.
 */
export function copySecurityScheme(scheme: Readonly<Json>): Json {
  const out: Json = { type: scheme.type };
  if (scheme.description !== undefined) out.description = scheme.description;
  for (const key of MEMBERS[scheme.type as SecurityScheme['type']]) {
    const value = scheme[key];
    if (value === undefined) continue;
    out[key] = key === 'flows' ? copyFlows(value as Json) : value;
  }
  for (const key of Object.keys(scheme)) {
    const value = scheme[key];
    if (!isExtension(key) || value === undefined) continue;
    const text = JSON.stringify(value);
    if (text !== undefined) out[key] = JSON.parse(text);
  }
  return out;
}

/** True when the scheme carries `x-charter-require-payload-auth: true`. */
export function requiresPayloadAuth(scheme: SecurityScheme): boolean {
  return (scheme as unknown as Readonly<Json>)[PAYLOAD_AUTH_EXTENSION] === true;
}

/** The scope names an oauth2 scheme declares across its flows. */
function declaredScopes(scheme: SecurityScheme): ReadonlySet<string> | undefined {
  if (scheme.type !== 'oauth2') return undefined;
  const names = new Set<string>();
  for (const flow of Object.values(scheme.flows)) {
    if (flow !== undefined) for (const name of Object.keys(flow.scopes)) names.add(name);
  }
  return names;
}

/**
 * Checks a route's (group's, plugin's) `auth` and throws a TypeError naming `where` when: it has a
 * member other than scheme, scopes and payload (a misspelt `scope` would drop the requirement
 * silently); the scheme is not a non-empty string, or, when `schemes` is given, not one of them;
 * scopes are not RFC 6749 §3.3 scope tokens (non-empty, no spaces), or, for an oauth2 scheme, not
 * declared by any of its flows; `payload` is not a boolean; or `payload: false` opts out of a scheme
 * that requires payload authentication.
 */
export function assertAuthSpec(
  auth: AuthSpec,
  schemes: Readonly<Record<string, SecurityScheme>> | undefined,
  where: string,
): void {
  if (!isObject(auth))
    throw new TypeError(`${where}: auth must be an object { scheme, scopes?, payload?, optional? }`);
  checkKeys(where, 'auth', auth, ['scheme', 'scopes', 'payload', 'optional']);
  const name = auth.scheme;
  if (typeof name !== 'string' || name === '') fail(where, 'auth.scheme', 'must be a non-empty string');
  const scheme = schemes !== undefined && Object.hasOwn(schemes, name) ? schemes[name] : undefined;
  if (schemes !== undefined && scheme === undefined) {
    const known = Object.keys(schemes);
    fail(
      where,
      'auth.scheme',
      `${JSON.stringify(name)} is not a declared security scheme (declared: ${known.length === 0 ? 'none' : known.join(', ')})`,
    );
  }
  if (auth.scopes !== undefined) {
    if (!Array.isArray(auth.scopes)) fail(where, 'auth.scopes', 'must be an array of scope names');
    const declared = scheme === undefined ? undefined : declaredScopes(scheme);
    for (const scope of auth.scopes) {
      if (!isScopeToken(scope)) {
        fail(
          where,
          'auth.scopes',
          `has ${JSON.stringify(scope)}, which is not a scope (non-empty, no spaces)`,
        );
      }
      if (declared !== undefined && !declared.has(scope)) {
        fail(
          where,
          'auth.scopes',
          `has ${JSON.stringify(scope)}, which no flow of the oauth2 scheme "${name}" declares`,
        );
      }
    }
  }
  if (auth.payload !== undefined && typeof auth.payload !== 'boolean')
    fail(where, 'auth.payload', 'must be a boolean');
  if (auth.optional !== undefined && typeof auth.optional !== 'boolean')
    fail(where, 'auth.optional', 'must be a boolean');
  if (auth.payload === false && scheme !== undefined && requiresPayloadAuth(scheme)) {
    fail(
      where,
      'auth.payload',
      `false is refused: the security scheme "${name}" requires payload authentication (${PAYLOAD_AUTH_EXTENSION})`,
    );
  }
}

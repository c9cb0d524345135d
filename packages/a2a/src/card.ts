/**
 * The agent card (A2A 1.0 AgentCard, served at `/.well-known/agent-card.json`): built once from the
 * `card` option, emitted with `supportedInterfaces` (the JSON-RPC binding) and the capabilities this
 * module has (no streaming, no push notifications, no extended card), and served with caching
 * (RFC 9111 `max-age`, RFC 9110 §8.8.3 strong ETag, §13.1.2 If-None-Match) and open CORS.
 */
import { isLoopbackHost } from './client/url-policy.ts';
import { A2A_JSONRPC_BINDING, A2A_PROTOCOL_VERSION } from './constants.ts';
import type {
  A2aAgentCard,
  A2aAgentExtension,
  A2aAgentProvider,
  A2aAgentSkill,
  A2aSecurityRequirement,
  A2aSecurityScheme,
} from './types.ts';
import { isPlainObject } from './validate.ts';

/** What you describe about the agent; the handler turns it into an A2A 1.0 card. */
export interface A2aCardInput {
  /** Human-readable name. Required. */
  name: string;
  /** What the agent does. Required. */
  description: string;
  /** Absolute URL of the JSON-RPC endpoint (where `a2aRoutes` mounts POST). Required; https in production. */
  url: string;
  /** The agent's own version string. Required. */
  version: string;
  /** Skills the agent offers. Default `[]`. */
  skills?: A2aAgentSkill[];
  /** Media types the agent reads. Default `['text/plain']`. */
  defaultInputModes?: string[];
  /** Media types the agent writes. Default `['text/plain']`. */
  defaultOutputModes?: string[];
  provider?: A2aAgentProvider;
  documentationUrl?: string;
  iconUrl?: string;
  /** How callers authenticate (advertised only: enforce it with a hook). */
  securitySchemes?: Record<string, A2aSecurityScheme>;
  securityRequirements?: A2aSecurityRequirement[];
  /** Extensions the agent supports; a `required` one must be declared in `A2A-Extensions` (-32008 otherwise). */
  extensions?: A2aAgentExtension[];
}

function fail(field: string, message: string): never {
  throw new TypeError(`createA2aHandler: option "card.${field}" ${message}`);
}

function requiredString(input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.trim().length === 0) fail(field, 'must be a non-empty string');
  return value;
}

function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value !== undefined && typeof value !== 'string') fail(field, 'must be a string');
  return value as string | undefined;
}

function modes(input: Record<string, unknown>, field: string): string[] {
  const value = input[field] ?? ['text/plain'];
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.some((m) => typeof m !== 'string' || !m.includes('/'))
  ) {
    fail(field, 'must be a non-empty array of media types such as "text/plain"');
  }
  return [...value];
}

/**
 * True for a loopback hostname as URL serialises it: `localhost`, `*.localhost` (a trailing dot too),
 * 127.0.0.0/8, `[::1]` and IPv4-mapped forms such as `[::ffff:7f00:1]` (the client's rule, one source).
 */
export function isLoopbackHostname(hostname: string): boolean {
  return isLoopbackHost(hostname);
}

/** Why `url` may not be published by a production agent (https and not loopback), or undefined. */
export function productionCardUrlProblem(url: string): string | undefined {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return `card.url ${JSON.stringify(url)} must use https in production`;
  if (isLoopbackHostname(parsed.hostname))
    return `card.url ${JSON.stringify(url)} points at a loopback host, which no remote agent can reach`;
  return undefined;
}

function checkUrl(input: Record<string, unknown>): string {
  const url = requiredString(input, 'url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    fail('url', `must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') fail('url', 'must be an http(s) URL');
  if (parsed.username !== '' || parsed.password !== '') fail('url', 'must not carry credentials');
  if (parsed.hash !== '') fail('url', 'must not carry a fragment');
  return url;
}

function checkSkills(value: unknown): A2aAgentSkill[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail('skills', 'must be an array');
  const ids = new Set<string>();
  return value.map((skill: unknown, i) => {
    if (!isPlainObject(skill)) fail(`skills[${i}]`, 'must be an object');
    for (const key of ['id', 'name', 'description'] as const) requiredString(skill, key);
    if (!Array.isArray(skill.tags) || skill.tags.some((t) => typeof t !== 'string'))
      fail(`skills[${i}].tags`, 'must be an array of strings');
    if (ids.has(skill.id as string)) fail(`skills[${i}].id`, `duplicates ${JSON.stringify(skill.id)}`);
    ids.add(skill.id as string);
    return structuredClone(skill) as unknown as A2aAgentSkill;
  });
}

function checkExtensions(value: unknown): A2aAgentExtension[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) fail('extensions', 'must be an array');
  return value.map((extension: unknown, i) => {
    if (!isPlainObject(extension) || typeof extension.uri !== 'string' || extension.uri.length === 0)
      fail(`extensions[${i}]`, 'must be an object with a non-empty "uri"');
    if (extension.required !== undefined && typeof extension.required !== 'boolean')
      fail(`extensions[${i}].required`, 'must be a boolean');
    return structuredClone(extension) as unknown as A2aAgentExtension;
  });
}

/** Deep-freezes a JSON tree so the published card cannot drift from its ETag. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Validates the `card` option and builds the A2A 1.0 card (frozen). */
export function buildAgentCard(input: unknown): A2aAgentCard {
  if (!isPlainObject(input))
    throw new TypeError('createA2aHandler: option "card" is required and must be an object');
  const card: A2aAgentCard = {
    name: requiredString(input, 'name'),
    description: requiredString(input, 'description'),
    // A2A 1.0 replaced the top-level url/preferredTransport with this list; first = preferred.
    supportedInterfaces: [
      { url: checkUrl(input), protocolBinding: A2A_JSONRPC_BINDING, protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    version: requiredString(input, 'version'),
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: modes(input, 'defaultInputModes'),
    defaultOutputModes: modes(input, 'defaultOutputModes'),
    skills: checkSkills(input.skills),
  };
  if (input.provider !== undefined) {
    if (!isPlainObject(input.provider)) fail('provider', 'must be { organization, url }');
    card.provider = {
      organization: requiredString(input.provider, 'organization'),
      url: requiredString(input.provider, 'url'),
    };
  }
  const documentationUrl = optionalString(input, 'documentationUrl');
  if (documentationUrl !== undefined) card.documentationUrl = documentationUrl;
  const iconUrl = optionalString(input, 'iconUrl');
  if (iconUrl !== undefined) card.iconUrl = iconUrl;
  const extensions = checkExtensions(input.extensions);
  if (extensions !== undefined) card.capabilities.extensions = extensions;
  if (input.securitySchemes !== undefined) {
    if (!isPlainObject(input.securitySchemes)) fail('securitySchemes', 'must be an object');
    card.securitySchemes = structuredClone(input.securitySchemes) as Record<string, A2aSecurityScheme>;
  }
  if (input.securityRequirements !== undefined) {
    if (!Array.isArray(input.securityRequirements)) fail('securityRequirements', 'must be an array');
    card.securityRequirements = structuredClone(input.securityRequirements) as A2aSecurityRequirement[];
  }
  return deepFreeze(card);
}

/** Strong ETag of the card: a quoted SHA-256 of its JSON (RFC 9110 §8.8.3). */
export async function cardEtag(json: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(json)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `"${hex}"`;
}

/**
 * Whether If-None-Match matches the ETag. RFC 9110 §13.1.2 uses the weak comparison, so `W/"x"`
 * matches `"x"`; `*` matches any current representation. Scanned without a regular expression.
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  for (const raw of header.split(',')) {
    let tag = raw.trim();
    if (tag === '*') return true;
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === etag) return true;
  }
  return false;
}

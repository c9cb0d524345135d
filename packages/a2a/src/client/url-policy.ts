/**
 * Where the A2A client may send requests. A2A 1.0 §2 (agent discovery) lets the agent card name the
 * JSON-RPC endpoint in `supportedInterfaces[].url`; a card is data from the network, so following it
 * blindly would let whoever controls the card point the client (and the credentials in its `headers`)
 * at any host: server-side request forgery and a confused deputy. The rules below bound that.
 */
import { classifyIp, parseIp, unmapIpv4 } from '@charter/core';
import { A2aClientError } from './errors.ts';

/**
 * True when a URL hostname names the local machine: `localhost` and `*.localhost` (RFC 6761 §6.3),
 * 127.0.0.0/8 and ::1 (RFC 6890), IPv4-mapped forms included.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const ip = parseIp(literal);
  return ip !== undefined && classifyIp(unmapIpv4(ip)) === 'loopback';
}

/**
 * Why a URL may not be used as an A2A endpoint, or undefined when it may: http(s) only, no userinfo
 * (RFC 9110 §4.2.4 deprecates it and it disguises the real host), and https unless the host is loopback
 * or the caller opted into plain http (the card, messages and credentials would travel in clear text).
 */
export function insecureUrlProblem(url: URL, allowInsecureHttp: boolean): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `the scheme ${url.protocol} is not http(s)`;
  if (url.username !== '' || url.password !== '') return 'it has credentials in it';
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    return 'plain http is only allowed to a loopback host (set allowInsecureHttp to opt in, unsafe)';
  }
  return undefined;
}

/**
 * Validates `allowedOrigins` entries: each must be a bare http(s) origin (`https://agents.example.com`,
 * a port allowed, a trailing slash tolerated) and is stored in its `URL.origin` serialisation.
 */
export function parseAllowedOrigins(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value))
    throw new TypeError('createA2aClient: allowedOrigins must be an array of origins');
  const origins = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const fail = (): never => {
      throw new TypeError(
        `createA2aClient: allowedOrigins[${index}] ${JSON.stringify(entry)} must be an http(s) origin such as "https://agents.example.com" (no path, query or credentials)`,
      );
    };
    if (typeof entry !== 'string') return fail();
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return fail();
    }
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !bare || url.password !== '')
      return fail();
    origins.add(url.origin);
  });
  return origins;
}

/** What decides whether the card's interface URL may be used. */
export interface InterfacePolicy {
  readonly allowedOrigins: ReadonlySet<string>;
  readonly allowInsecureHttp: boolean;
}

/**
 * Resolves the JSON-RPC endpoint a card names. It must be an absolute URL, pass `insecureUrlProblem`,
 * and have the card's own origin or one listed in `allowedOrigins` (RFC 6454 origin: scheme, host and
 * port, so an https card cannot send the client to http on the same host either). The fragment is dropped.
 */
export function resolveInterfaceUrl(raw: string, cardUrl: URL, policy: InterfacePolicy): URL {
  const refuse = (why: string): never => {
    throw new A2aClientError(`A2A client refused the card's interface URL ${JSON.stringify(raw)}: ${why}`, {
      reason: 'interface-not-allowed',
    });
  };
  let url: URL;
  try {
    // No base: a relative interface URL is not valid in a 1.0 card (AgentInterface.url is absolute).
    url = new URL(raw);
  } catch {
    return refuse('it is not an absolute URL');
  }
  const problem = insecureUrlProblem(url, policy.allowInsecureHttp);
  if (problem !== undefined) return refuse(problem);
  if (url.origin !== cardUrl.origin && !policy.allowedOrigins.has(url.origin)) {
    return refuse(`its origin ${url.origin} is not the card's (${cardUrl.origin}) and not in allowedOrigins`);
  }
  url.hash = '';
  return url;
}

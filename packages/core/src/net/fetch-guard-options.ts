/**
 * Options of the outbound request guard and the address policy they describe: which hosts, schemes
 * and addresses an outbound request may reach.
 */
import { type CidrMatcher, compileCidrs, parseCidr } from './cidr.ts';
import type { HostResolver } from './dns.ts';
import { classifyIp, embeddedIpv4 } from './ip-class.ts';
import { formatIp, parseIp, unmapIpv4 } from './ip.ts';

/** A fetch-compatible function. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of `fetchGuard`. Every address class outside `public` is refused unless a flag opens it. */
export interface FetchGuardOptions {
  /** The fetch that sends each hop; default `globalThis.fetch`, read at call time. */
  fetch?: FetchFunction;
  /** Allow 127.0.0.0/8 and ::1 (and `localhost` names); default false. */
  allowLoopback?: boolean;
  /** Allow RFC 1918 private networks and RFC 6598 shared space 100.64.0.0/10; default false. */
  allowPrivate?: boolean;
  /** Allow 169.254.0.0/16 and fe80::/10, metadata addresses excepted; default false. */
  allowLinkLocal?: boolean;
  /** Allow fc00::/7, metadata addresses excepted; default false. */
  allowUniqueLocal?: boolean;
  /**
   * CIDR blocks or single addresses allowed whatever their class. A cloud metadata address is
   * allowed only when listed as a single address (`169.254.169.254`, not a block containing it).
   * Default none.
   */
  allowAddresses?: readonly string[];
  /** CIDR blocks or single addresses always refused; wins over everything, IPv6 forms embedding them included. Default none. */
  denyAddresses?: readonly string[];
  /**
   * When set, the only host names (or IP literals) requests may go to, compared after URL
   * normalisation; `*.example.com` matches every subdomain of example.com but not example.com itself.
   * Address checks still apply. Default: any host.
   */
  allowHosts?: readonly string[];
  /** Schemes allowed, with the colon; default `['http:', 'https:']`. */
  allowProtocols?: readonly string[];
  /** Redirects followed, each re-validated; default 5; 0 refuses every redirect. */
  maxRedirects?: number;
  /** Resolves a host name to all its addresses; default the runtime's resolver (absent on workers). */
  resolve?: HostResolver;
}

/** The options after validation. */
export interface ResolvedFetchGuardOptions {
  readonly fetch: FetchFunction | undefined;
  readonly allowLoopback: boolean;
  readonly allowPrivate: boolean;
  readonly allowLinkLocal: boolean;
  readonly allowUniqueLocal: boolean;
  readonly allowAddresses: CidrMatcher;
  /** Canonical text of the single addresses in `allowAddresses` (the only way to open a metadata address). */
  readonly allowExact: ReadonlySet<string>;
  readonly denyAddresses: CidrMatcher;
  /** Undefined: any host. */
  readonly allowHosts: HostMatcher | undefined;
  readonly allowProtocols: ReadonlySet<string>;
  readonly maxRedirects: number;
  readonly resolve: HostResolver | undefined;
}

/** Answers whether a URL hostname (as `URL.hostname` gives it) is allowed. */
export type HostMatcher = (hostname: string) => boolean;

const KNOWN_OPTIONS = new Set([
  'fetch',
  'allowLoopback',
  'allowPrivate',
  'allowLinkLocal',
  'allowUniqueLocal',
  'allowAddresses',
  'denyAddresses',
  'allowHosts',
  'allowProtocols',
  'maxRedirects',
  'resolve',
]);

function flag(options: FetchGuardOptions, name: keyof FetchGuardOptions): boolean {
  const value = options[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw new TypeError(`fetchGuard: ${name} must be a boolean, got ${typeof value}`);
  return value;
}

function stringList(value: unknown, name: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new TypeError(`fetchGuard: ${name} must be an array of strings`);
  }
  return value as string[];
}

function trimDot(host: string): string {
  return host.length > 1 && host.endsWith('.') ? host.slice(0, -1) : host;
}

/** The hostname a `URL` would give for the entry, or undefined when the entry is not a bare host. */
function normaliseHost(entry: string): string | undefined {
  const ip = parseIp(entry);
  const text = ip?.version === 6 ? `[${entry}]` : entry;
  try {
    const url = new URL(`http://${text}/`);
    if (url.host !== url.hostname || url.pathname !== '/' || url.search || url.hash || url.username) {
      return undefined;
    }
    if (url.href !== `http://${url.hostname}/`) return undefined;
    return trimDot(url.hostname);
  } catch {
    return undefined;
  }
}

function compileHosts(list: readonly string[]): HostMatcher {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  list.forEach((entry, index) => {
    const wildcard = entry.startsWith('*.');
    const host = normaliseHost(wildcard ? entry.slice(2) : entry);
    if (host === undefined || host.length === 0 || host.includes('*')) {
      throw new TypeError(
        `fetchGuard: allowHosts[${index}] "${entry}" is not a host name, an IP literal or "*.domain" (no scheme, port or path)`,
      );
    }
    if (wildcard) suffixes.push(`.${host}`);
    else exact.add(host);
  });
  return (hostname) => {
    const host = trimDot(hostname.toLowerCase());
    if (exact.has(host)) return true;
    for (const suffix of suffixes) if (host.length > suffix.length && host.endsWith(suffix)) return true;
    return false;
  };
}

function protocols(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set(['http:', 'https:']);
  const list = stringList(value, 'allowProtocols');
  return new Set(
    list.map((entry, index) => {
      if (!/^[a-z][a-z0-9+.-]*:$/i.test(entry)) {
        throw new TypeError(
          `fetchGuard: allowProtocols[${index}] "${entry}" must be a scheme with its colon, such as "https:"`,
        );
      }
      return entry.toLowerCase();
    }),
  );
}

/** Validates `fetchGuard` options, fills the defaults, and compiles the address lists. */
export function resolveFetchGuardOptions(options: FetchGuardOptions = {}): ResolvedFetchGuardOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('fetchGuard: options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`fetchGuard: unknown option "${key}"`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('fetchGuard: fetch must be a function');
  }
  if (options.resolve !== undefined && typeof options.resolve !== 'function') {
    throw new TypeError('fetchGuard: resolve must be a function (host) => Promise<string[]>');
  }
  const maxRedirects = options.maxRedirects ?? 5;
  if (typeof maxRedirects !== 'number' || !Number.isSafeInteger(maxRedirects) || maxRedirects < 0) {
    throw new RangeError(
      `fetchGuard: maxRedirects must be a non-negative integer, got ${String(maxRedirects)}`,
    );
  }
  const allowList = stringList(options.allowAddresses, 'allowAddresses');
  const allowExact = new Set<string>();
  allowList.forEach((entry, index) => {
    const cidr = parseCidr(entry, `fetchGuard: allowAddresses[${index}]`);
    if (cidr.prefix === (cidr.version === 4 ? 32 : 128)) allowExact.add(formatIp(cidr));
  });
  const hostList =
    options.allowHosts === undefined ? undefined : stringList(options.allowHosts, 'allowHosts');
  return Object.freeze({
    fetch: options.fetch,
    allowLoopback: flag(options, 'allowLoopback'),
    allowPrivate: flag(options, 'allowPrivate'),
    allowLinkLocal: flag(options, 'allowLinkLocal'),
    allowUniqueLocal: flag(options, 'allowUniqueLocal'),
    allowAddresses: compileCidrs(allowList, 'fetchGuard: allowAddresses'),
    allowExact,
    denyAddresses: compileCidrs(
      stringList(options.denyAddresses, 'denyAddresses'),
      'fetchGuard: denyAddresses',
    ),
    allowHosts: hostList === undefined ? undefined : compileHosts(hostList),
    allowProtocols: protocols(options.allowProtocols),
    maxRedirects,
    resolve: options.resolve,
  });
}

/**
 * Whether an outbound request may reach the address (text from a URL host or a DNS answer):
 * deny list first (the address and any IPv4 it embeds), then metadata (single-address allow entries
 * only), then the allow list, then the class flags. Unparseable text is refused.
 */
export function isAddressAllowed(text: string, options: ResolvedFetchGuardOptions): boolean {
  const parsed = parseIp(text, { zone: 'strip' });
  if (parsed === undefined) return false;
  const ip = unmapIpv4(parsed);
  const embedded = embeddedIpv4(ip);
  if (options.denyAddresses(ip) || (embedded !== undefined && options.denyAddresses(embedded))) return false;
  const cls = classifyIp(ip);
  if (cls === 'metadata') return options.allowExact.has(formatIp(ip));
  if (options.allowAddresses(ip)) return true;
  switch (cls) {
    case 'public':
      return true;
    case 'loopback':
      return options.allowLoopback;
    case 'private':
      return options.allowPrivate;
    case 'link-local':
      return options.allowLinkLocal;
    case 'unique-local':
      return options.allowUniqueLocal;
    default:
      // unspecified (0.0.0.0 reaches the local host on Linux), multicast, broadcast, documentation, reserved.
      return false;
  }
}

/**
 * The outbound request guard: a fetch wrapper that refuses requests to addresses an attacker could
 * use to reach the inside of the network (SSRF). Redirects are followed by hand so every hop is
 * validated again (Fetch Standard §4.4 "HTTP-redirect fetch" semantics otherwise).
 */
import { systemResolver } from './dns.ts';
import {
  type FetchFunction,
  type FetchGuardOptions,
  isAddressAllowed,
  type ResolvedFetchGuardOptions,
  resolveFetchGuardOptions,
} from './fetch-guard-options.ts';
import { parseIp } from './ip.ts';
import { SsrfError } from './ssrf-error.ts';

/** A checked URL, and the addresses to connect to when the guard pins it. */
interface Checked {
  readonly url: URL;
  /** The validated DNS answers to connect to (plain-http names on Bun's own fetch); empty: no pinning. */
  readonly pins: readonly string[];
}

// Errors raised before a connection exists: the request was never sent, so the next address may be tried.
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ConnectionRefused',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Fetch §4.4 step 12: headers that describe a body, dropped when the body is.
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];
// Credentials bound to an origin: a redirect to another origin must not carry them (Fetch §4.4 step 13
// removes Authorization; cookies and proxy credentials leak the same way).
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'host'];

function hostIp(url: URL): string | undefined {
  const host = url.hostname;
  if (host.startsWith('[')) return host.slice(1, -1);
  // URL already rewrites legacy IPv4 spellings for http(s); other schemes keep an opaque host.
  const ip = parseIp(host, { legacyIpv4: true });
  return ip === undefined ? undefined : host;
}

function isLocalhostName(host: string): boolean {
  const name = (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
}

function refuseAddress(url: URL, address: string): SsrfError {
  return new SsrfError(
    'address-not-allowed',
    url,
    `fetchGuard refused ${url.host}: address ${address} is not allowed`,
    {
      address,
    },
  );
}

async function resolveHost(url: URL, options: ResolvedFetchGuardOptions): Promise<readonly string[]> {
  const resolve = options.resolve ?? systemResolver();
  const fail = (why: string, cause?: unknown): SsrfError =>
    new SsrfError('dns-resolution-failed', url, `fetchGuard could not resolve ${url.hostname}: ${why}`, {
      cause,
    });
  if (resolve === undefined) throw fail('this runtime has no resolver; pass the `resolve` option');
  let answers: readonly string[];
  try {
    answers = await resolve(url.hostname);
  } catch (error) {
    throw fail((error as Error)?.message ?? String(error), error);
  }
  if (!Array.isArray(answers) || answers.length === 0) throw fail('no addresses');
  return answers;
}

/** Validates one URL (the request's or a redirect's): scheme, credentials, host, every address. */
async function check(url: URL, options: ResolvedFetchGuardOptions, pinnable: boolean): Promise<Checked> {
  if (!options.allowProtocols.has(url.protocol)) {
    throw new SsrfError('protocol-not-allowed', url, `fetchGuard refused the scheme ${url.protocol}`);
  }
  // Userinfo in a URL is deprecated (RFC 9110 §4.2.4) and a classic way to disguise the real host.
  if (url.username !== '' || url.password !== '') {
    throw new SsrfError('credentials-in-url', url, 'fetchGuard refused a URL with credentials in it');
  }
  if (url.hostname === '') return { url, pins: [] };
  if (options.allowHosts !== undefined && !options.allowHosts(url.hostname)) {
    throw new SsrfError('host-not-allowed', url, `fetchGuard refused the host ${url.hostname}`);
  }
  const literal = hostIp(url);
  if (literal !== undefined) {
    if (!isAddressAllowed(literal, options)) throw refuseAddress(url, literal);
    return { url, pins: [] };
  }
  // RFC 6761 §6.3: localhost names are loopback whatever a resolver answers.
  if (isLocalhostName(url.hostname) && !isAddressAllowed('127.0.0.1', options)) {
    throw refuseAddress(url, '127.0.0.1');
  }
  const answers = await resolveHost(url, options);
  // Every answer, not only the first: the connection may use any of them.
  for (const answer of answers) {
    if (typeof answer !== 'string' || !isAddressAllowed(answer, options))
      throw refuseAddress(url, String(answer));
  }
  // Zone ids cannot be written in a URL host, so such answers are never pinned.
  const pins = pinnable && url.protocol === 'http:' ? answers.filter((answer) => !answer.includes('%')) : [];
  return { url, pins };
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new SsrfError(
      'invalid-url',
      text,
      `fetchGuard could not parse the URL ${JSON.stringify(text.slice(0, 200))}`,
    );
  }
}

function isReplayable(body: BodyInit | null | undefined): boolean {
  return (
    body === null ||
    body === undefined ||
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof FormData
  );
}

/**
 * Sends one hop. When pinned, it connects to a checked address with the original `Host` (RFC 9110
 * §7.2), so the fetch cannot resolve the name again and land elsewhere (DNS rebinding); when an address
 * refuses the connection, the next one is tried, as a resolver-driven connect would.
 */
async function send(
  fetcher: FetchFunction,
  checked: Checked,
  init: RequestInit,
  headers: Headers,
  retryable: boolean,
): Promise<Response> {
  if (checked.pins.length === 0) return fetcher(checked.url.href, { ...init, headers });
  const pinnedHeaders = new Headers(headers);
  pinnedHeaders.set('host', checked.url.host);
  for (let i = 0; ; i++) {
    const pin = checked.pins[i] as string;
    const target = new URL(checked.url.href);
    target.hostname = pin.includes(':') ? `[${pin}]` : pin;
    try {
      const response = await fetcher(target.href, { ...init, headers: pinnedHeaders });
      Object.defineProperty(response, 'url', { value: checked.url.href });
      return response;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const last = i === checked.pins.length - 1;
      if (last || !retryable || typeof code !== 'string' || !CONNECT_ERRORS.has(code)) throw error;
    }
  }
}

function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/**
 * A fetch that refuses loopback, private, link-local, unique-local, cloud-metadata and other
 * non-public addresses unless the options allow them; every DNS answer and every redirect hop is
 * checked. Throws `SsrfError` (`url`, `reason`, `address`) when it refuses.
 * @example
 * const safeFetch = fetchGuard();
 * await safeFetch(userSuppliedWebhookUrl, { method: 'POST', body: JSON.stringify(event) });
 */
export function fetchGuard(options?: FetchGuardOptions): FetchFunction {
  const resolved = resolveFetchGuardOptions(options);
  // Pinning needs a fetch that connects to the URL's address and sends our Host header: Bun's own.
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';
  const pinnable = isBun && resolved.fetch === undefined;

  return async function guardedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const fetcher: FetchFunction = resolved.fetch ?? ((i, o) => globalThis.fetch(i, o));
    let method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    let headers = new Headers(init?.headers ?? request?.headers);
    let body: BodyInit | null | undefined = init !== undefined && 'body' in init ? init.body : request?.body;
    const mode = init?.redirect ?? request?.redirect ?? 'follow';
    const signal = init?.signal ?? request?.signal;
    const replayable = isReplayable(body);
    const rest: RequestInit = { ...init, redirect: 'manual' };
    if (signal !== undefined) rest.signal = signal;
    if (body !== null && body !== undefined && !replayable) (rest as { duplex?: string }).duplex = 'half';

    let checked = await check(parseUrl(request?.url ?? String(input)), resolved, pinnable);
    for (let redirects = 0; ; redirects++) {
      signal?.throwIfAborted();
      const response = await send(
        fetcher,
        checked,
        { ...rest, method, body: body ?? null },
        headers,
        replayable,
      );
      const location = response.headers.get('location');
      if (mode === 'manual' || !REDIRECT_STATUSES.has(response.status) || location === null) {
        if (redirects > 0) Object.defineProperty(response, 'redirected', { value: true });
        return response;
      }
      discard(response);
      if (mode === 'error')
        throw new TypeError(`fetchGuard: ${checked.url.href} redirected and redirect is "error"`);
      const next = parseUrl(location, checked.url);
      if (redirects >= resolved.maxRedirects) {
        throw new SsrfError(
          'too-many-redirects',
          next,
          `fetchGuard stopped after ${resolved.maxRedirects} redirects (maxRedirects)`,
        );
      }
      const status = response.status;
      // Fetch §4.4 step 12: 303 (and 301/302 after POST) continue as a GET without a body.
      if (
        (status === 303 && method !== 'GET' && method !== 'HEAD') ||
        ((status === 301 || status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = null;
        for (const name of BODY_HEADERS) headers.delete(name);
      } else if (body !== null && body !== undefined && !replayable) {
        throw new TypeError(
          `fetchGuard: ${status} redirect needs the request body again, and a stream cannot be replayed; pass a string, bytes, Blob or FormData body`,
        );
      }
      if (next.origin !== checked.url.origin) {
        headers = new Headers(headers);
        for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
      }
      checked = await check(next, resolved, pinnable);
    }
  };
}

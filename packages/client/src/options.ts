/** Options of `createClient` and `createInProcessClient`, validated once at creation. */
import type { HeadersInit } from '@charter/core';
import { applyHeaders } from './headers.ts';
import type { HeadersInput } from './types.ts';

/** Sends one request; `globalThis.fetch` fits, and so does `app.fetch`. */
export type ClientFetch = (request: Request) => Promise<Response>;

/** Options of `createClient(app, options)`. */
export interface ClientOptions {
  /**
   * Absolute `http:` or `https:` URL of the server, optionally with a path prefix
   * (`https://api.example.com/v1` + `/users` = `https://api.example.com/v1/users`); no query, no
   * fragment, no credentials. Required.
   */
  baseUrl: string | URL;
  /** How requests are sent. Default `globalThis.fetch`. */
  fetch?: ClientFetch;
  /** Header fields sent with every request; a call's own `headers` win over them. Default none. */
  headers?: HeadersInit | HeadersInput;
  /**
   * Validate each declared response's body against its schema and throw a
   * `ResponseValidationError` when it does not match. Default false (the server already validates
   * what it sends when its `validateResponses` is on).
   */
  validateResponses?: boolean;
}

/** Options of `createInProcessClient(app, options)`: `createClient` over `app.fetch`, no network. */
export interface InProcessClientOptions {
  /** Origin (and optional path prefix) of the in-process requests. Default `http://charter.local`. */
  baseUrl?: string | URL;
  /** Header fields sent with every request; a call's own `headers` win. Default none. */
  headers?: HeadersInit | HeadersInput;
  /** As in `ClientOptions`. Default false. */
  validateResponses?: boolean;
}

export interface ResolvedClientOptions {
  /** Origin and path prefix, without a trailing `/`. */
  readonly base: string;
  readonly fetch: ClientFetch;
  readonly headers: Headers;
  readonly validateResponses: boolean;
}

function badBaseUrl(value: unknown, why: string): never {
  throw new TypeError(`Client option baseUrl must be an absolute http(s) URL: ${why} (got ${String(value)})`);
}

/** `origin + path prefix` of a base URL, or a TypeError naming the option. */
export function resolveBaseUrl(value: unknown): string {
  if (typeof value !== 'string' && !(value instanceof URL)) return badBaseUrl(value, 'not a string');
  const text = String(value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return badBaseUrl(value, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return badBaseUrl(value, `the scheme is ${url.protocol.slice(0, -1)}`);
  }
  // Fetch §5.4 step 5.3: a Request URL with credentials is refused; say so at creation instead.
  if (url.username !== '' || url.password !== '') return badBaseUrl(value, 'it carries credentials');
  // The client appends the path and its own query: a base query or fragment would be lost or misplaced.
  if (text.includes('?') || text.includes('#')) return badBaseUrl(value, 'it has a query or a fragment');
  let end = url.pathname.length;
  while (end > 0 && url.pathname.charCodeAt(end - 1) === 47) end--;
  return url.origin + url.pathname.slice(0, end);
}

/** Validates client options; throws a TypeError naming the offending option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createClient(app, options): options must be an object with a baseUrl');
  }
  const fetch = options.fetch ?? (globalThis.fetch as ClientFetch | undefined);
  if (typeof fetch !== 'function') {
    throw new TypeError('Client option fetch must be a function (and globalThis.fetch is not one)');
  }
  if (options.validateResponses !== undefined && typeof options.validateResponses !== 'boolean') {
    throw new TypeError('Client option validateResponses must be a boolean');
  }
  const headers = new Headers();
  applyHeaders(headers, options.headers, 'Client option headers');
  return Object.freeze({
    base: resolveBaseUrl(options.baseUrl),
    // Called unbound: some runtimes' fetch refuses a `this` other than the global object.
    fetch: options.fetch === undefined ? (request: Request) => globalThis.fetch(request) : fetch,
    headers,
    validateResponses: options.validateResponses ?? false,
  });
}

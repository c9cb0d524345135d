/**
 * The open-redirect guard: turns a user-supplied redirect target (`?next=`, `returnTo`) into a
 * `Location` only when it stays on this origin or goes to a listed one. Browsers resolve `Location`
 * with the WHATWG URL parser (RFC 9110 §10.2.2), which strips tabs and newlines, reads `\` as `/`
 * and takes `//host` as a new authority; each of those tricks is refused before parsing.
 */
import { keepClassNames } from '../errors/class-names.ts';
import { BadRequestError } from '../errors/index.ts';
import type { HeadersInit } from '../types/web.ts';

/** Why a redirect target was refused. */
export type UnsafeRedirectReason =
  | 'empty-target'
  | 'invalid-control-characters'
  | 'non-latin1-target'
  | 'protocol-relative'
  | 'backslash-path'
  | 'path-not-allowed'
  | 'origin-not-allowed'
  | 'scheme-not-allowed'
  | 'parse-failed';

/** The redirect statuses `safeRedirect` sends (RFC 9110 §15.4). */
export type SafeRedirectStatus = 301 | 302 | 303 | 307 | 308;

/** Options of `safeRedirect`. */
export interface SafeRedirectOptions {
  /** This app's origin (`https://app.example`), so absolute same-origin targets are recognised; default: the request's. */
  origin?: string;
  /** The request being answered: relative targets resolve against its URL, and its origin is this app's. */
  request?: Request | string | URL;
  /** When set, same-origin targets must have exactly one of these paths (query and fragment are free). Default: any path. */
  allowedPaths?: readonly string[];
  /** Other origins targets may go to, compared as serialised origins (`https://idp.example`). Default none. */
  allowedOrigins?: readonly string[];
  /** Redirected to instead of throwing when the target is refused; must itself pass every check but `allowedPaths`. */
  fallback?: string;
  /** 301, 302, 303, 307 or 308; default 303 (See Other: the next request is a GET). */
  status?: SafeRedirectStatus;
  /** Headers added to the response; `Location` is always the guard's. */
  headers?: HeadersInit;
}

/** A refused redirect target: a 400 when it reaches the pipeline. `target` is kept for logs, never rendered. */
export class UnsafeRedirectError extends BadRequestError {
  readonly reason: UnsafeRedirectReason;
  readonly target: string;

  constructor(reason: UnsafeRedirectReason, target: string) {
    super({ detail: `The redirect target was refused (${reason})`, extensions: { reason } });
    this.reason = reason;
    this.target = target;
  }
}

keepClassNames({ UnsafeRedirectError });

const STATUSES = new Set([301, 302, 303, 307, 308]);
// Resolves relative targets when neither `origin` nor `request` is given; never emitted.
const PLACEHOLDER_BASE = 'http://same-origin.invalid/';

interface Context {
  readonly base: string;
  readonly ownOrigin: string | undefined;
  readonly allowedPaths: ReadonlySet<string> | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
}

function isC0OrSpace(c: number): boolean {
  return c <= 0x20;
}

/** The scheme of an absolute URL (WHATWG URL "scheme state"), lowercased, or undefined for a relative reference. */
function schemeOf(target: string): string | undefined {
  const first = target.charCodeAt(0) | 0x20;
  if (first < 97 || first > 122) return undefined;
  for (let i = 1; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 58) return target.slice(0, i).toLowerCase();
    const lower = c | 0x20;
    const ok = (lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
    if (!ok) return undefined;
  }
  return undefined;
}

function refuse(reason: UnsafeRedirectReason, target: string): never {
  throw new UnsafeRedirectError(reason, target);
}

/** Validates one target and answers the `Location` value. */
function locate(target: string | null | undefined, context: Context, checkPaths: boolean): string {
  if (typeof target !== 'string') return refuse('empty-target', String(target));
  let blank = true;
  for (let i = 0; i < target.length; i++) if (!isC0OrSpace(target.charCodeAt(i))) blank = false;
  if (blank) refuse('empty-target', target);
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    // C0 controls and DEL (the URL parser deletes tabs and newlines anywhere: `/\t/evil.com` is `//evil.com`),
    // C1 controls, and leading or trailing spaces (stripped before parsing).
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) refuse('invalid-control-characters', target);
  }
  if (target.charCodeAt(0) === 0x20 || target.charCodeAt(target.length - 1) === 0x20) {
    refuse('invalid-control-characters', target);
  }
  for (let i = 0; i < target.length; i++)
    if (target.charCodeAt(i) > 0xff) refuse('non-latin1-target', target);
  const a = target.charCodeAt(0);
  const b = target.charCodeAt(1);
  // `//evil`, `/\evil`, `\/evil`, `\\evil`: browsers read each as a network-path reference (RFC 3986 §4.2).
  if ((a === 47 || a === 92) && (b === 47 || b === 92)) refuse('protocol-relative', target);
  // Before the query or fragment, `\` is a path separator to browsers and a literal to others.
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 63 || c === 35) break;
    if (c === 92) refuse('backslash-path', target);
  }

  const scheme = schemeOf(target);
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') refuse('scheme-not-allowed', target);
  let url: URL;
  try {
    // An absolute target is parsed alone: `http:evil.com` against an https base is http://evil.com/.
    url = scheme === undefined ? new URL(target, context.base) : new URL(target);
  } catch {
    return refuse('parse-failed', target);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse('scheme-not-allowed', target);

  if (scheme === undefined || url.origin === context.ownOrigin) {
    // Same origin. `/.//evil.com` normalises to the path `//evil.com`, which a browser reads as a host.
    if (scheme === undefined && url.pathname.startsWith('//')) refuse('protocol-relative', target);
    if (checkPaths && context.allowedPaths !== undefined && !context.allowedPaths.has(url.pathname)) {
      refuse('path-not-allowed', target);
    }
    return scheme === undefined ? url.pathname + url.search + url.hash : url.href;
  }
  if (!context.allowedOrigins.has(url.origin)) refuse('origin-not-allowed', target);
  return url.href;
}

function serialisedOrigin(value: unknown, name: string): string {
  let origin: string | undefined;
  try {
    origin = typeof value === 'string' ? new URL(value).origin : undefined;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === 'null' || origin !== value) {
    throw new TypeError(
      `safeRedirect: ${name} must be a serialised origin such as "https://app.example", got ${JSON.stringify(value)}`,
    );
  }
  return origin;
}

function contextOf(options: SafeRedirectOptions): Context {
  let base = PLACEHOLDER_BASE;
  let ownOrigin: string | undefined;
  if (options.request !== undefined) {
    const href = options.request instanceof Request ? options.request.url : String(options.request);
    try {
      const url = new URL(href);
      base = url.href;
      ownOrigin = url.origin;
    } catch {
      throw new TypeError(`safeRedirect: request has no absolute URL (${JSON.stringify(href)})`);
    }
  }
  if (options.origin !== undefined) {
    ownOrigin = serialisedOrigin(options.origin, 'origin');
    if (options.request === undefined) base = `${ownOrigin}/`;
  }
  let allowedPaths: Set<string> | undefined;
  if (options.allowedPaths !== undefined) {
    if (!Array.isArray(options.allowedPaths))
      throw new TypeError('safeRedirect: allowedPaths must be an array');
    allowedPaths = new Set(
      options.allowedPaths.map((path, index) => {
        const ok = typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');
        if (!ok || new URL(path, PLACEHOLDER_BASE).pathname !== path) {
          throw new TypeError(
            `safeRedirect: allowedPaths[${index}] must be a normalised absolute path such as "/account", got ${JSON.stringify(path)}`,
          );
        }
        return path;
      }),
    );
  }
  const origins = options.allowedOrigins ?? [];
  if (!Array.isArray(origins)) throw new TypeError('safeRedirect: allowedOrigins must be an array');
  const allowedOrigins = new Set(
    origins.map((origin, index) => serialisedOrigin(origin, `allowedOrigins[${index}]`)),
  );
  return { base, ownOrigin, allowedPaths, allowedOrigins };
}

/**
 * The `Location` for a user-supplied target, or the fallback's. Same-origin relative targets come back as
 * a normalised path (`/a/b?x#y`), absolute ones as their serialised URL. Throws `UnsafeRedirectError`.
 */
export function safeRedirectLocation(
  target: string | null | undefined,
  options: SafeRedirectOptions = {},
): string {
  const context = contextOf(options);
  let fallback: string | undefined;
  if (options.fallback !== undefined) {
    try {
      fallback = locate(options.fallback, context, false);
    } catch (error) {
      const reason = (error as UnsafeRedirectError).reason;
      throw new TypeError(
        `safeRedirect: the fallback ${JSON.stringify(options.fallback)} is itself unsafe (${reason})`,
      );
    }
  }
  try {
    return locate(target, context, true);
  } catch (error) {
    if (fallback !== undefined && error instanceof UnsafeRedirectError) return fallback;
    throw error;
  }
}

/**
 * A redirect response to a user-supplied target that stays on this origin (or goes to an allowed one).
 * Throws `UnsafeRedirectError` (400) with `reason` and `target` when the target is refused and no
 * `fallback` is given.
 * @example return safeRedirect(url.searchParams.get('next'), { request, fallback: '/' });
 */
export function safeRedirect(target: string | null | undefined, options: SafeRedirectOptions = {}): Response {
  const status = options.status ?? 303;
  if (!STATUSES.has(status)) {
    throw new RangeError(`safeRedirect: status must be 301, 302, 303, 307 or 308, got ${String(status)}`);
  }
  const location = safeRedirectLocation(target, options);
  const headers = new Headers(options.headers);
  headers.set('location', location);
  return new Response(null, { status, headers });
}

import { assertSecurityScheme, type SecurityScheme } from '../auth/schemes.ts';
import type { Logger, LogLevel } from '../logger/index.ts';
import type { HookInput } from '../types/index.ts';
import { assertKnownOptions } from './known-options.ts';
import { AppOptionsError } from './option-error.ts';
import {
  type ResolvedSecurityOptions,
  resolveSecurityOptions,
  type SecurityOptions,
} from './security-options.ts';

export { AppOptionsError } from './option-error.ts';

/** Limits for multipart/form-data bodies. */
export interface MultipartLimits {
  /** Largest single file, in bytes; default 10 MiB (still capped by bodyLimitBytes). */
  maxFileBytes?: number;
  /** Most fields (files included); default 100. */
  maxFields?: number;
  /** Most files; default 10. */
  maxFiles?: number;
}

/** Options of `new App(options)` / `createApp(options)`. */
export interface AppOptions extends SecurityOptions {
  /** OpenAPI document metadata. */
  title?: string;
  version?: string;
  description?: string;
  /** Largest request body, in bytes, on every route (raw `ctx.request` reads included); default 1 MiB. */
  bodyLimitBytes?: number;
  /** Media types a route with a body accepts; default JSON, urlencoded form and multipart form. */
  allowedContentTypes?: readonly string[];
  /** Time for hooks, body read and handler together, in ms; default 30000; 0 disables. */
  requestTimeoutMs?: number;
  /** Status of the timeout problem: 408 (default), 503 or 504. */
  requestTimeoutStatus?: 408 | 503 | 504;
  /** Most request header fields; default 100 (so 99 usable); 0 disables. */
  maxHeaderCount?: number;
  multipart?: MultipartLimits;
  /** Production mode redacts internal error detail; default from NODE_ENV. */
  production?: boolean;
  /** Default from NODE_ENV; `production` implies `production: true`. */
  env?: 'development' | 'production' | 'test';
  /** A Logger, a level for the built-in JSON-lines logger, or false to silence. */
  logger?: Logger | { level?: LogLevel } | false;
  /** Status code logged when a client disconnects before the response; default 499. */
  disconnectStatusCode?: number;
  /** Validate handler response bodies against the declared schemas; default true. */
  validateResponses?: boolean;
  /** Hooks for every request, unmatched 404/405 included. */
  hooks?: HookInput;
  /**
   * The security schemes routes name in `auth.scheme` (built with `httpBearerScheme()`, `oauth2Scheme()`...).
   * When given, an `auth` naming an undeclared scheme, or opting out of a scheme's payload authentication,
   * throws at registration; the OpenAPI document lists them under `components.securitySchemes`.
   */
  securitySchemes?: Readonly<Record<string, SecurityScheme>>;
}

// One entry per option: the compiler refuses a missing or an extra one, so the list cannot drift.
const APP_OPTION_KEYS: Readonly<Record<keyof AppOptions, true>> = {
  title: true,
  version: true,
  description: true,
  bodyLimitBytes: true,
  allowedContentTypes: true,
  requestTimeoutMs: true,
  requestTimeoutStatus: true,
  maxHeaderCount: true,
  multipart: true,
  production: true,
  env: true,
  logger: true,
  disconnectStatusCode: true,
  validateResponses: true,
  hooks: true,
  securitySchemes: true,
  secureDefaults: true,
  acknowledgeInsecureDefaults: true,
  preset: true,
  stripServerHeaders: true,
  secureHeaders: true,
  corsCrossOriginGuard: true,
  csrf: true,
  trustProxy: true,
  behindProxy: true,
  crashOnUnhandledRejection: true,
  loadShedding: true,
  mockMode: true,
};

/** The names of the core App options; an App subclass adds its own (`static optionNames`). */
export const APP_OPTION_NAMES: readonly string[] = Object.freeze(Object.keys(APP_OPTION_KEYS));

/** Options after validation, with every default filled in. */
export interface ResolvedAppOptions {
  readonly title: string | undefined;
  readonly version: string | undefined;
  readonly description: string | undefined;
  readonly bodyLimitBytes: number;
  readonly allowedContentTypes: readonly string[];
  readonly requestTimeoutMs: number;
  readonly requestTimeoutStatus: 408 | 503 | 504;
  readonly maxHeaderCount: number;
  readonly multipart: Required<MultipartLimits>;
  readonly production: boolean;
  readonly env: 'development' | 'production' | 'test';
  readonly disconnectStatusCode: number;
  readonly validateResponses: boolean;
  /** The declared security schemes, validated and frozen; undefined when none were given. */
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>> | undefined;
  /** The guard options (secure defaults, proxy posture, load shedding...). */
  readonly security: ResolvedSecurityOptions;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_HEADER_COUNT = 100;
export const DEFAULT_ALLOWED_CONTENT_TYPES: readonly string[] = Object.freeze([
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

function nonNegativeInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value) || value < 0) {
    throw new AppOptionsError(name, `must be a finite non-negative integer, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  const n = nonNegativeInteger(name, value, fallback);
  if (n === 0) throw new AppOptionsError(name, 'must be at least 1');
  return n;
}

function nodeEnv(): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV;
  } catch {
    // Deno without --allow-env throws on the read (NotCapable): NODE_ENV is then unknown, as on workers.
    return undefined;
  }
}

function resolveSecuritySchemes(
  schemes: AppOptions['securitySchemes'],
): Readonly<Record<string, SecurityScheme>> | undefined {
  if (schemes === undefined) return undefined;
  if (typeof schemes !== 'object' || schemes === null || Array.isArray(schemes)) {
    throw new AppOptionsError(
      'securitySchemes',
      'must be an object mapping scheme names to security schemes',
    );
  }
  const resolved: Record<string, SecurityScheme> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    // OpenAPI 3.1 §4.8.7: component names match ^[a-zA-Z0-9.\-_]+$.
    if (!/^[A-Za-z0-9._-]+$/.test(name)) {
      throw new AppOptionsError(
        `securitySchemes.${name}`,
        'must be named with letters, digits, ".", "-" or "_"',
      );
    }
    try {
      assertSecurityScheme(scheme, `securitySchemes.${name}`);
    } catch (error) {
      throw new AppOptionsError(`securitySchemes.${name}`, (error as Error).message);
    }
    resolved[name] = scheme;
  }
  return Object.freeze(resolved);
}

/**
 * Validates the options, fills defaults and freezes the result. A key outside `optionNames` is refused
 * with the closest known name (JavaScript callers would otherwise see a typo silently ignored).
 */
export function resolveAppOptions(
  options: AppOptions = {},
  optionNames: readonly string[] = APP_OPTION_NAMES,
): ResolvedAppOptions {
  if (typeof options !== 'object' || options === null)
    throw new AppOptionsError('options', 'must be an object');
  assertKnownOptions(options, optionNames, (key, problem) => new AppOptionsError(key, problem));
  const fromNodeEnv = nodeEnv();
  const env =
    options.env ?? (fromNodeEnv === 'production' || fromNodeEnv === 'test' ? fromNodeEnv : 'development');
  if (env !== 'development' && env !== 'production' && env !== 'test') {
    throw new AppOptionsError('env', `must be "development", "production" or "test", got ${String(env)}`);
  }
  if (options.production !== undefined && typeof options.production !== 'boolean') {
    throw new AppOptionsError('production', 'must be a boolean');
  }
  const timeoutStatus = options.requestTimeoutStatus === undefined ? 408 : options.requestTimeoutStatus;
  if (timeoutStatus !== 408 && timeoutStatus !== 503 && timeoutStatus !== 504) {
    throw new AppOptionsError(
      'requestTimeoutStatus',
      `must be 408, 503 or 504, got ${String(timeoutStatus)}`,
    );
  }
  const types = options.allowedContentTypes ?? DEFAULT_ALLOWED_CONTENT_TYPES;
  if (!Array.isArray(types) || types.some((t) => typeof t !== 'string' || !t.includes('/'))) {
    throw new AppOptionsError(
      'allowedContentTypes',
      'must be an array of media types such as "application/json"',
    );
  }
  const multipart = options.multipart ?? {};
  const disconnect = nonNegativeInteger('disconnectStatusCode', options.disconnectStatusCode, 499);
  if (disconnect < 100 || disconnect > 999) {
    throw new AppOptionsError('disconnectStatusCode', 'must be a three-digit status code');
  }
  if (options.validateResponses !== undefined && typeof options.validateResponses !== 'boolean') {
    throw new AppOptionsError('validateResponses', 'must be a boolean');
  }
  const production = options.production ?? env === 'production';
  const securitySchemes = resolveSecuritySchemes(options.securitySchemes);
  return Object.freeze({
    title: options.title,
    version: options.version,
    description: options.description,
    bodyLimitBytes: nonNegativeInteger('bodyLimitBytes', options.bodyLimitBytes, DEFAULT_BODY_LIMIT_BYTES),
    allowedContentTypes: Object.freeze(types.map((t) => t.toLowerCase())),
    requestTimeoutMs: nonNegativeInteger(
      'requestTimeoutMs',
      options.requestTimeoutMs,
      DEFAULT_REQUEST_TIMEOUT_MS,
    ),
    requestTimeoutStatus: timeoutStatus,
    maxHeaderCount: nonNegativeInteger('maxHeaderCount', options.maxHeaderCount, DEFAULT_MAX_HEADER_COUNT),
    multipart: Object.freeze({
      maxFileBytes: positiveInteger('multipart.maxFileBytes', multipart.maxFileBytes, 10 * 1024 * 1024),
      maxFields: positiveInteger('multipart.maxFields', multipart.maxFields, 100),
      maxFiles: nonNegativeInteger('multipart.maxFiles', multipart.maxFiles, 10),
    }),
    production,
    env,
    disconnectStatusCode: disconnect,
    validateResponses: options.validateResponses ?? true,
    securitySchemes,
    security: resolveSecurityOptions(options, production),
  });
}

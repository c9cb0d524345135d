import { resolveSecureHeaders, type SecureHeadersOptions } from '../middleware/secure-headers.ts';
import { type ProxyPosture, type ResolvedProxyPosture, resolveProxyPosture } from '../net/index.ts';
import { AppOptionsError } from './option-error.ts';

/** Load shedding: refuse work (503 with Retry-After) before it starts when the process is overloaded. */
export interface LoadSheddingOptions {
  /** Event-loop delay, in ms, above which new requests are refused; default 200; 0 disables this check. */
  maxEventLoopDelayMs?: number;
  /** Requests in flight at once above which new ones are refused; default 1024; 0 disables this check. */
  maxInFlight?: number;
  /** How often the event-loop delay is sampled, in ms; default 100. */
  sampleIntervalMs?: number;
  /** The `Retry-After` of the 503, in seconds; default 1. */
  retryAfterSeconds?: number;
}

/** The guard options of AppOptions (see https://charter.dev/docs/secure-defaults). */
export interface SecurityOptions {
  /** Every browser and proxy guard below on by default; default true. */
  secureDefaults?: boolean;
  /** Required (in production) to turn any default guard off; construction throws without it. */
  acknowledgeInsecureDefaults?: boolean;
  /** `internal-service`: an app only other services call; the browser guards are off. */
  preset?: 'internal-service';
  /** Remove `Server` and `X-Powered-By` from every response; default true. */
  stripServerHeaders?: boolean;
  /** The security headers added to every response (see `secureHeaders`), or false for none. */
  secureHeaders?: SecureHeadersOptions | false;
  /** Refuse a cross-origin state-changing browser request from an origin no CORS policy allows; default true. */
  corsCrossOriginGuard?: boolean;
  /** `off` lets state-changing session routes run without CSRF protection (the boot guard stops refusing). */
  csrf?: 'off';
  /**
   * Legacy proxy switch: true trusts every X-Forwarded-For hop, false ignores the headers,
   * undefined (with no `behindProxy`) refuses forwarded headers in production.
   */
  trustProxy?: boolean;
  /** Which proxies sit in front of the app: `none`, `loopback`, `{ hops }` or `{ cidrs }`; wins over trustProxy. */
  behindProxy?: ProxyPosture;
  /** Exit the process on an unhandled promise rejection (after logging it); default true in production. */
  crashOnUnhandledRejection?: boolean;
  /** Refuse requests with 503 while the process is overloaded; default false. */
  loadShedding?: boolean | LoadSheddingOptions;
  /** Handlers answer from the routes' declared response examples; default false. */
  mockMode?: boolean;
}

/** The guard options after validation. */
export interface ResolvedSecurityOptions {
  readonly secureDefaults: boolean;
  readonly acknowledgeInsecureDefaults: boolean;
  readonly preset: 'internal-service' | undefined;
  readonly stripServerHeaders: boolean;
  /** Undefined when no security headers are added. */
  readonly secureHeaders: SecureHeadersOptions | undefined;
  /** The security headers every response gets (when it does not set them itself), resolved once. */
  readonly responseHeaders: ReadonlyArray<readonly [string, string]>;
  readonly corsCrossOriginGuard: boolean;
  readonly csrf: 'on' | 'off';
  readonly proxy: ResolvedProxyPosture;
  readonly crashOnUnhandledRejection: boolean;
  readonly loadShedding: Readonly<Required<LoadSheddingOptions>> | undefined;
  readonly mockMode: boolean;
}

const DEFAULT_LOAD_SHEDDING: Readonly<Required<LoadSheddingOptions>> = Object.freeze({
  maxEventLoopDelayMs: 200,
  maxInFlight: 1024,
  sampleIntervalMs: 100,
  retryAfterSeconds: 1,
});

function optionalBoolean(name: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw new AppOptionsError(name, 'must be a boolean');
  return value;
}

function count(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new AppOptionsError(name, `must be an integer of at least ${min}, got ${String(value)}`);
  }
  return value;
}

function resolveLoadShedding(value: unknown): Readonly<Required<LoadSheddingOptions>> | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return DEFAULT_LOAD_SHEDDING;
  if (typeof value !== 'object' || value === null) {
    throw new AppOptionsError('loadShedding', 'must be a boolean or an options object');
  }
  const options = value as LoadSheddingOptions;
  const resolved = Object.freeze({
    maxEventLoopDelayMs: count(
      'loadShedding.maxEventLoopDelayMs',
      options.maxEventLoopDelayMs,
      DEFAULT_LOAD_SHEDDING.maxEventLoopDelayMs,
      0,
    ),
    maxInFlight: count('loadShedding.maxInFlight', options.maxInFlight, DEFAULT_LOAD_SHEDDING.maxInFlight, 0),
    sampleIntervalMs: count(
      'loadShedding.sampleIntervalMs',
      options.sampleIntervalMs,
      DEFAULT_LOAD_SHEDDING.sampleIntervalMs,
      10,
    ),
    retryAfterSeconds: count(
      'loadShedding.retryAfterSeconds',
      options.retryAfterSeconds,
      DEFAULT_LOAD_SHEDDING.retryAfterSeconds,
      0,
    ),
  });
  if (resolved.maxEventLoopDelayMs === 0 && resolved.maxInFlight === 0) {
    throw new AppOptionsError('loadShedding', 'maxEventLoopDelayMs and maxInFlight cannot both be 0');
  }
  return resolved;
}

/**
 * Validates the guard options. In production, turning a default guard off (or serving mock
 * answers) throws unless `acknowledgeInsecureDefaults` is set: an unsafe configuration is refused
 * at boot, not discovered in an incident.
 */
export function resolveSecurityOptions(
  options: SecurityOptions,
  production: boolean,
): ResolvedSecurityOptions {
  const secureDefaults = optionalBoolean('secureDefaults', options.secureDefaults) ?? true;
  const acknowledged =
    optionalBoolean('acknowledgeInsecureDefaults', options.acknowledgeInsecureDefaults) ?? false;
  const preset = options.preset;
  if (preset !== undefined && preset !== 'internal-service') {
    throw new AppOptionsError('preset', `must be "internal-service", got ${String(preset)}`);
  }
  // The browser guards protect pages and cookies; a service-to-service app has neither.
  const browserGuards = secureDefaults && preset === undefined;
  const stripServerHeaders =
    optionalBoolean('stripServerHeaders', options.stripServerHeaders) ?? secureDefaults;
  const corsCrossOriginGuard =
    optionalBoolean('corsCrossOriginGuard', options.corsCrossOriginGuard) ?? browserGuards;
  const headers = options.secureHeaders;
  if (headers !== undefined && headers !== false && (typeof headers !== 'object' || headers === null)) {
    throw new AppOptionsError('secureHeaders', 'must be an options object or false');
  }
  const secureHeaders = headers === false ? undefined : (headers ?? (browserGuards ? {} : undefined));
  if (options.csrf !== undefined && options.csrf !== 'off') {
    throw new AppOptionsError('csrf', `the only accepted value is "off", got ${String(options.csrf)}`);
  }
  const mockMode = optionalBoolean('mockMode', options.mockMode) ?? false;
  let proxy: ResolvedProxyPosture;
  try {
    proxy = resolveProxyPosture({
      trustProxy: optionalBoolean('trustProxy', options.trustProxy),
      behindProxy: options.behindProxy,
    });
  } catch (error) {
    throw new AppOptionsError('behindProxy', (error as Error).message);
  }

  if (production && !acknowledged) {
    const disabled: string[] = [];
    if (!secureDefaults) disabled.push('secureDefaults: false');
    if (options.stripServerHeaders === false) disabled.push('stripServerHeaders: false');
    if (headers === false) disabled.push('secureHeaders: false');
    if (options.corsCrossOriginGuard === false) disabled.push('corsCrossOriginGuard: false');
    if (mockMode) disabled.push('mockMode: true');
    if (disabled.length > 0) {
      throw new AppOptionsError(
        'acknowledgeInsecureDefaults',
        `production turns off secure defaults (${disabled.join(', ')}); set acknowledgeInsecureDefaults: true ` +
          'if that is intended',
      );
    }
  }

  return Object.freeze({
    secureDefaults,
    acknowledgeInsecureDefaults: acknowledged,
    preset,
    stripServerHeaders,
    secureHeaders,
    responseHeaders:
      secureHeaders === undefined ? Object.freeze([]) : resolveSecureHeaders(secureHeaders, { production }),
    corsCrossOriginGuard,
    csrf: options.csrf === 'off' ? 'off' : 'on',
    proxy,
    crashOnUnhandledRejection:
      optionalBoolean('crashOnUnhandledRejection', options.crashOnUnhandledRejection) ?? production,
    loadShedding: resolveLoadShedding(options.loadShedding),
    mockMode,
  });
}

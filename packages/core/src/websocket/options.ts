/**
 * Validates a WebSocket route's handler and fills in the defaults, so a typo fails at registration
 * with the option's name rather than on the first connection.
 */
import type { WsBeforeUpgrade, WsHandler, WsOriginPredicate } from './types.ts';

/** The defaults (https://charter.dev/docs/websocket). */
export const WS_DEFAULTS = Object.freeze({
  maxPayloadLength: 1024 * 1024,
  backpressureLimit: 1024 * 1024,
  idleTimeoutSeconds: 120,
});

/** A handler with every limit decided and the origin option as one predicate. */
export interface ResolvedWsHandler {
  readonly handler: WsHandler;
  readonly beforeUpgrade: readonly WsBeforeUpgrade[];
  readonly maxPayloadLength: number;
  readonly backpressureLimit: number;
  readonly idleTimeoutSeconds: number;
  readonly allowedSubprotocols: readonly string[];
  /** Admits a browser origin other than the request's own; undefined when none is. */
  readonly allowsOrigin: WsOriginPredicate | undefined;
}

const PHASES = ['open', 'message', 'close', 'error', 'drain'] as const;
const KNOWN = new Set<string>([
  ...PHASES,
  'beforeUpgrade',
  'maxPayloadLength',
  'backpressureLimit',
  'idleTimeoutSeconds',
  'allowedSubprotocols',
  'origin',
]);
// Bun and the Node adapter both size buffers from this; 2^32 - 1 is Bun's own ceiling.
const MAX_LIMIT = 0xffff_ffff;

function fail(where: string, option: string, problem: string): never {
  throw new TypeError(`${where}: option "${option}" ${problem}`);
}

function integer(where: string, option: string, value: unknown, fallback: number, min: number, max: number) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `${where}: option "${option}" must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** RFC 6455 §4.1: a subprotocol is a token of U+0021-U+007E without separators (RFC 2616 §2.2). */
export function isWsSubprotocolToken(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || '()<>@,;:\\"/[]?={}'.includes(value[i] as string)) return false;
  }
  return true;
}

/** `https://app.example` as URL serialises it, or undefined if `value` is not exactly an origin. */
export function serialisedWsOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.origin === 'null' || url.username !== '' || url.password !== '') return undefined;
    const rest = url.pathname === '/' ? '' : url.pathname;
    if (rest !== '' || url.search !== '' || url.hash !== '' || value.endsWith('/')) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function originPredicate(where: string, option: unknown): WsOriginPredicate | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'function') return option as WsOriginPredicate;
  const list = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(list)) fail(where, 'origin', 'must be an origin, a list of origins, "*" or a function');
  const allowed = new Set<string>();
  for (const entry of list as unknown[]) {
    if (entry === '*') return () => true;
    // Opaque origins (sandboxed frames, file: pages) serialise as "null"; admitted only when listed.
    if (entry === 'null') {
      allowed.add('null');
      continue;
    }
    const origin = typeof entry === 'string' ? serialisedWsOrigin(entry) : undefined;
    if (origin === undefined) {
      fail(
        where,
        'origin',
        `has ${JSON.stringify(entry)}, which is not an origin like "https://app.example"`,
      );
    }
    allowed.add(origin);
  }
  return (origin) => allowed.has(origin === 'null' ? origin : (serialisedWsOrigin(origin) ?? ''));
}

/** Validates a `WsHandler`; throws a TypeError or RangeError naming the option. */
export function resolveWsHandler(handler: WsHandler, where = 'app.ws()'): ResolvedWsHandler {
  if (typeof handler !== 'object' || handler === null)
    throw new TypeError(`${where}: the handler must be an object`);
  for (const key of Object.keys(handler)) {
    if (!KNOWN.has(key))
      fail(where, key, `is not a WebSocket handler field; expected one of ${[...KNOWN].join(', ')}`);
  }
  for (const phase of PHASES) {
    if (handler[phase] !== undefined && typeof handler[phase] !== 'function')
      fail(where, phase, 'must be a function');
  }
  const before = handler.beforeUpgrade;
  const beforeUpgrade: readonly WsBeforeUpgrade[] =
    before === undefined ? [] : Array.isArray(before) ? before : [before as WsBeforeUpgrade];
  if (beforeUpgrade.some((fn) => typeof fn !== 'function')) {
    fail(where, 'beforeUpgrade', 'must be a function or a list of functions');
  }
  const protocols = handler.allowedSubprotocols ?? [];
  if (!Array.isArray(protocols)) fail(where, 'allowedSubprotocols', 'must be a list of strings');
  const seen = new Set<string>();
  for (const protocol of protocols as unknown[]) {
    if (typeof protocol !== 'string' || !isWsSubprotocolToken(protocol)) {
      fail(
        where,
        'allowedSubprotocols',
        `has ${JSON.stringify(protocol)}, which is not a token (RFC 6455 §4.1)`,
      );
    }
    if (seen.has(protocol)) fail(where, 'allowedSubprotocols', `lists "${protocol}" twice`);
    seen.add(protocol);
  }
  return Object.freeze({
    handler,
    beforeUpgrade: Object.freeze([...beforeUpgrade]),
    maxPayloadLength: integer(
      where,
      'maxPayloadLength',
      handler.maxPayloadLength,
      WS_DEFAULTS.maxPayloadLength,
      0,
      MAX_LIMIT,
    ),
    backpressureLimit: integer(
      where,
      'backpressureLimit',
      handler.backpressureLimit,
      WS_DEFAULTS.backpressureLimit,
      1,
      MAX_LIMIT,
    ),
    idleTimeoutSeconds: integer(
      where,
      'idleTimeoutSeconds',
      handler.idleTimeoutSeconds,
      WS_DEFAULTS.idleTimeoutSeconds,
      0,
      86_400,
    ),
    allowedSubprotocols: Object.freeze([...(protocols as string[])]),
    allowsOrigin: originPredicate(where, handler.origin),
  });
}

/**
 * The server side of the opening handshake (RFC 6455 §4.2): is this request a valid WebSocket
 * handshake, from an origin the route admits, offering a subprotocol it speaks? Refusals are RFC 9457
 * problem responses; an acceptance carries what the 101 response needs.
 */
import { BadRequestError, ForbiddenError, HttpError, problemResponse } from '../errors/index.ts';
import type { ResolvedWsHandler } from './options.ts';
import { isWsSubprotocolToken, serialisedWsOrigin } from './options.ts';

/** The GUID RFC 6455 §1.3 appends to the key before hashing. */
export const WS_HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The `Sec-WebSocket-Version` this server speaks (§4.4: the only one RFC 6455 defines). */
export const WS_VERSION = '13';

/** `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)) (§4.2.2 step 5.4). */
export async function wsAcceptKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(key + WS_HANDSHAKE_GUID));
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * §4.2.1 item 5: the key is the base64 of 16 bytes: 22 alphabet characters then `==`, the last of
 * them carrying only 2 bits (so `A`, `Q`, `g` or `w`). Repeated fields (joined with `, `) fail here.
 */
export function isValidWsKey(key: string | null): key is string {
  if (key === null || key.length !== 24 || !key.endsWith('==')) return false;
  for (let i = 0; i < 22; i++) if (!BASE64.includes(key[i] as string)) return false;
  return 'AQgw'.includes(key[21] as string);
}

/** The comma-separated tokens of a header, trimmed and lower-cased (RFC 9110 §5.6.1). */
function tokens(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '');
}

/** `host[:port]` of an origin or URL, lower case, default ports dropped. */
function authority(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** A refusal as a problem document with extra headers (which may sit outside the error header allowlist). */
function refusal(error: HttpError, headers: Record<string, string> = {}, redact = false): Response {
  const response = problemResponse(error.toProblem(redact), error.headers);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** 426 for a request that is not a WebSocket handshake at all (RFC 9110 §15.5.22 requires `Upgrade`). */
function upgradeRequired(detail: string, headers: Record<string, string>): Response {
  return refusal(new HttpError({ status: 426, detail }), headers);
}

/** The outcome of `decideWsHandshake`. */
export type WsHandshakeDecision =
  | {
      readonly accepted: true;
      /** The client's `Sec-WebSocket-Key`. */
      readonly key: string;
      /** The chosen subprotocol, or `''`. */
      readonly protocol: string;
    }
  | { readonly accepted: false; readonly response: Response };

/**
 * The checks of §4.2.1 and the Origin check (§10.2), in this order:
 * 1. `Upgrade: websocket` and `Connection: upgrade`, else 426 with `Upgrade: websocket`;
 * 2. `Sec-WebSocket-Version: 13`, else 426 with `Sec-WebSocket-Version: 13` (§4.4);
 * 3. a well-formed `Sec-WebSocket-Key`, else 400;
 * 4. an `Origin`, when present, that is the request's own (host and port) or one the route admits,
 *    else 403: browsers do not apply CORS to WebSocket, so this is the guard against Cross-Site
 *    WebSocket Hijacking. A request without `Origin` is not from a browser and passes;
 * 5. `Sec-WebSocket-Protocol`: the first of the route's `allowedSubprotocols` the client offers;
 *    offers none of them, 400 (a client that asked for a subprotocol fails a handshake without one).
 */
export async function decideWsHandshake(
  request: Request,
  route: ResolvedWsHandler,
): Promise<WsHandshakeDecision> {
  const headers = request.headers;
  if (request.method !== 'GET') {
    return {
      accepted: false,
      response: upgradeRequired('A WebSocket handshake is a GET request (RFC 6455 §4.1)', {
        upgrade: 'websocket',
      }),
    };
  }
  if (
    !tokens(headers.get('upgrade')).includes('websocket') ||
    !tokens(headers.get('connection')).includes('upgrade')
  ) {
    return {
      accepted: false,
      response: upgradeRequired(
        'This resource speaks WebSocket only: send Upgrade: websocket and Connection: Upgrade (RFC 6455 §4.1)',
        { upgrade: 'websocket', connection: 'Upgrade' },
      ),
    };
  }
  const version = headers.get('sec-websocket-version');
  if (version?.trim() !== WS_VERSION) {
    return {
      accepted: false,
      response: upgradeRequired(
        `Sec-WebSocket-Version ${version === null ? 'is missing' : `"${version}" is not supported`}; this server speaks 13 (RFC 6455 §4.4)`,
        { 'sec-websocket-version': WS_VERSION },
      ),
    };
  }
  const key = headers.get('sec-websocket-key');
  if (!isValidWsKey(key)) {
    return {
      accepted: false,
      response: refusal(
        new BadRequestError('Sec-WebSocket-Key must be the base64 of 16 bytes (RFC 6455 §4.2.1)'),
      ),
    };
  }
  const origin = headers.get('origin');
  if (origin !== null && !(await originAllowed(origin, request, route))) {
    return {
      accepted: false,
      response: refusal(
        new ForbiddenError(
          `WebSocket connections from ${origin === 'null' ? 'an opaque origin' : origin} are not allowed ` +
            '(see the origin option of app.ws)',
        ),
      ),
    };
  }
  const offered = headers.get('sec-websocket-protocol');
  let protocol = '';
  if (offered !== null) {
    const list = offered.split(',').map((t) => t.trim());
    if (list.some((t) => !isWsSubprotocolToken(t))) {
      return {
        accepted: false,
        response: refusal(
          new BadRequestError('Sec-WebSocket-Protocol must be a list of tokens (RFC 6455 §4.1)'),
        ),
      };
    }
    protocol = route.allowedSubprotocols.find((p) => list.includes(p)) ?? '';
    if (protocol === '') {
      const speaks = route.allowedSubprotocols.length === 0 ? 'none' : route.allowedSubprotocols.join(', ');
      return {
        accepted: false,
        response: refusal(
          new BadRequestError(
            `None of the offered subprotocols is supported; this endpoint speaks: ${speaks}`,
          ),
        ),
      };
    }
  }
  return { accepted: true, key, protocol };
}

async function originAllowed(origin: string, request: Request, route: ResolvedWsHandler): Promise<boolean> {
  // The request's own host and port, whatever the scheme: behind a TLS-terminating proxy the app sees
  // http:// while the page was https:// (the same rule as the App's cross-origin guard).
  if (origin !== 'null') {
    const own = authority(request.url);
    if (own !== undefined && serialisedWsOrigin(origin) !== undefined && authority(origin) === own)
      return true;
  }
  if (route.allowsOrigin === undefined) return false;
  // A predicate that throws is a bug: the pipeline answers 500 and logs it, rather than a silent 403.
  return (await route.allowsOrigin(origin, request)) === true;
}

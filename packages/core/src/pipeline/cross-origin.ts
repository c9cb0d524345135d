import { ForbiddenError } from '../errors/index.ts';
import type { HookTraits } from '../types/index.ts';

/** Throws when a request must be refused as a cross-origin state change; decided per route. */
export type CrossOriginCheck = (request: Request) => void;

// RFC 9110 §9.2.1: everything but these may change state on the server.
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** `host[:port]` of an absolute URL, lower case, without building a URL object on the common path. */
function authorityOf(url: string): string | undefined {
  const start = url.indexOf('://');
  if (start < 0) return undefined;
  let end = url.length;
  for (let i = start + 3; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // '/', '?', '#'
    if (c === 47 || c === 63 || c === 35) {
      end = i;
      break;
    }
  }
  return url.slice(start + 3, end).toLowerCase();
}

/** Normalises an Origin value as URL serialises origins (default ports dropped); undefined if not one. */
function serialisedOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

function refuse(method: string, origin: string | null): never {
  const from = origin === null ? 'another site' : origin === 'null' ? 'an opaque origin' : origin;
  throw new ForbiddenError(
    `Cross-origin ${method} from ${from} refused: no CORS policy of this route admits that origin ` +
      '(see the corsCrossOriginGuard App option)',
  );
}

/**
 * The cross-origin guard of one route, or undefined when the route needs none (the guard is off,
 * or the method is safe). A browser tells the server where a request comes from twice: Fetch
 * Metadata (`Sec-Fetch-Site`, sent by every current browser) and `Origin` (RFC 6454 §7, sent on
 * every cross-origin POST). A state-changing request that either marks as coming from another
 * origin is refused unless a CORS policy on the route (or a hook's `trustsOrigin`, e.g. CSRF `trustedOrigins`) admits that origin. A request with neither
 * header is not a browser's cross-site request (curl, service clients) and passes: this guard
 * protects browser users, authentication protects the rest.
 */
export function crossOriginCheck(
  method: string,
  enabled: boolean,
  traits: readonly HookTraits[],
): CrossOriginCheck | undefined {
  if (!enabled || SAFE_METHODS.has(method)) return undefined;
  const admitters: Array<(origin: string) => boolean> = [];
  for (const t of traits) {
    if (t.cors !== undefined) admitters.push(t.cors.allowsOrigin);
    if (t.trustsOrigin !== undefined) admitters.push(t.trustsOrigin);
  }
  const admits = (origin: string): boolean => {
    const normalised = serialisedOrigin(origin);
    return normalised !== undefined && admitters.some((allows) => allows(normalised));
  };
  return (request) => {
    const headers = request.headers;
    const site = headers.get('sec-fetch-site');
    // `same-origin`: the browser vouches for it; `none`: the user typed or bookmarked it.
    if (site === 'same-origin' || site === 'none') return;
    const origin = headers.get('origin');
    if (origin === null) {
      // Fetch Metadata without Origin can only come from a browser: trust what it says.
      if (site === 'cross-site' || site === 'same-site') refuse(request.method, null);
      return;
    }
    if (origin !== 'null') {
      // An older browser (no Fetch Metadata) on the app's own host. The scheme is not compared: a
      // TLS-terminating proxy makes the app see http:// while the page was https://.
      if (site === null) {
        const authority = authorityOf(origin);
        if (authority !== undefined && authority === authorityOf(request.url)) return;
      }
      if (admits(origin)) return;
    }
    refuse(request.method, origin);
  };
}

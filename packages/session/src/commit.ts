// Saving a request's session when its response is sent: store writes, then Set-Cookie.
import { randomId, serializeClearCookie, serializeCookie, setResponseHeaders } from '@charter/core';
import type { SessionState } from './request-session.ts';
import type { Signer } from './signing.ts';

/** Session ids: 32 bytes from the CSPRNG (256 bits; OWASP asks for at least 64 bits of entropy). */
export const SESSION_ID_BYTES = 32;

/** True when Cache-Control already keeps shared caches from storing the response. */
function keepsSharedCachesOut(cacheControl: string | null): boolean {
  if (cacheControl === null) return false;
  for (const part of cacheControl.split(',')) {
    // Only the bare directives count: `private="set-cookie"` still lets a shared cache store the rest.
    const directive = part.trim().toLowerCase();
    if (directive === 'no-store' || directive === 'private') return true;
  }
  return false;
}

async function cookieFor(session: SessionState, signer: Signer, id: string, now: number): Promise<string> {
  const { cookie, cookieName, persistent, absoluteMs } = session.owner;
  const remaining = Math.ceil((session.createdAt + absoluteMs - now) / 1000);
  const attributes = persistent && remaining > 0 ? { ...cookie, maxAgeSeconds: remaining } : cookie;
  return serializeCookie(cookieName, await signer.sign(id), attributes);
}

/**
 * Writes what the request changed and returns the response to send:
 * - a live session (loaded, not rotated or destroyed): written again when changed; otherwise its
 *   idle deadline moves (`touch`) once the gain reaches `touchAfterSeconds`. Its cookie is set
 *   again only when it was signed with an older secret.
 * - otherwise (new, rotated, destroyed): a non-empty session is stored under a fresh id and the
 *   cookie set; an empty one is not stored, and a rotated-away or destroyed cookie is cleared.
 * A response that sets or clears the cookie gets `Cache-Control: no-store` unless it already says
 * `no-store` or `private`: a shared cache may store a response with Set-Cookie and serve it, session
 * id included, to someone else (RFC 9111 §7.3: Set-Cookie does not inhibit caching).
 * Store errors propagate: the pipeline answers 500 instead of this response.
 */
export async function commitSession(
  session: SessionState,
  signer: Signer,
  response: Response,
): Promise<Response> {
  session.committed = true;
  const { store, idleMs, absoluteMs, touchAfterMs, cookieName, cookie } = session.owner;
  const now = session.owner.now();
  const expiresAt = Math.min(now + idleMs, session.createdAt + absoluteMs);
  let setCookie: string | undefined;

  // The old id dies first: should the write below fail (500, no cookie), it is not left usable.
  if (session.discardOriginal && session.originalId !== undefined) await store.delete(session.originalId);
  const liveId = session.discardOriginal ? undefined : session.originalId;
  if (liveId !== undefined) {
    if (session.dirty) {
      await store.set(liveId, session.toRecord(expiresAt));
    } else if (expiresAt > session.expiresAt && expiresAt - session.expiresAt >= touchAfterMs) {
      // Rolling idle expiry without rewriting the record, when the store can (spec: optional touch).
      if (store.touch !== undefined) await store.touch(liveId, expiresAt);
      else await store.set(liveId, session.toRecord(expiresAt));
    }
    if (session.resign) setCookie = await cookieFor(session, signer, liveId, now);
  } else if (!session.isEmpty()) {
    const id = randomId(SESSION_ID_BYTES);
    await store.set(id, session.toRecord(expiresAt));
    setCookie = await cookieFor(session, signer, id, now);
  } else if ((session.discardOriginal || session.destroyed) && session.cookiePresent) {
    setCookie = serializeClearCookie(cookieName, cookie);
  }

  if (setCookie === undefined) return response;
  const headers: [string, string][] = [['set-cookie', setCookie]];
  if (!keepsSharedCachesOut(response.headers.get('cache-control')))
    headers.push(['cache-control', 'no-store']);
  return setResponseHeaders(response, headers);
}

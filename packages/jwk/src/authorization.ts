/**
 * Reading a bearer token from the Authorization header (RFC 6750 §2.1, RFC 9110 §11.6.2), with the
 * same rules as the core `bearer()` helper. Only the header is read: tokens in the query or a form
 * body (RFC 6750 §2.2, §2.3) leak into logs and caches, and reading a body would defeat header-only
 * authentication.
 */

/** What the Authorization header holds. */
export type BearerCredentials =
  /** No Authorization header, or an empty one. */
  | { readonly kind: 'missing' }
  /** Credentials of another scheme (Basic, DPoP...): for this resource, no bearer credentials were sent. */
  | { readonly kind: 'other-scheme' }
  /** `Bearer` followed by something that is not one token68 (RFC 9110 §11.2): `invalid_request`. */
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'token'; readonly token: string };

const TCHAR = "!#$%&'*+-.^_`|~";

// tchar (RFC 9110 §5.6.2).
function isTokenChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c < 0x80 && TCHAR.includes(String.fromCharCode(c)))
  );
}

// token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" (RFC 9110 §11.2).
function isToken68(text: string): boolean {
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2d ||
      c === 0x2e ||
      c === 0x5f ||
      c === 0x7e ||
      c === 0x2b ||
      c === 0x2f;
    if (!ok) break;
  }
  if (i === 0) return false;
  for (; i < text.length; i++) if (text.charCodeAt(i) !== 0x3d) return false;
  return true;
}

const MALFORMED = 'The Authorization header must be "Bearer" followed by exactly one token.';

/**
 * Parses an Authorization header value: `auth-scheme [ 1*SP token68 ]` (RFC 9110 §11.6.2). The scheme
 * is case-insensitive (§11.1). Several Authorization fields arrive joined by commas, which is not one
 * token68: a request must not carry two candidate tokens.
 */
export function parseBearerAuthorization(value: string | null | undefined): BearerCredentials {
  if (value === null || value === undefined) return { kind: 'missing' };
  const text = value.trim();
  // An empty field carries no credentials at all, like an absent one.
  if (text === '') return { kind: 'missing' };
  let i = 0;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  // Not `token [ SP ... ]`: whatever it is, it is not Bearer credentials.
  if (i === 0 || (i < text.length && text.charCodeAt(i) !== 0x20)) return { kind: 'other-scheme' };
  if (text.slice(0, i).toLowerCase() !== 'bearer') return { kind: 'other-scheme' };
  while (i < text.length && text.charCodeAt(i) === 0x20) i++;
  const token = text.slice(i);
  return isToken68(token) ? { kind: 'token', token } : { kind: 'malformed', reason: MALFORMED };
}

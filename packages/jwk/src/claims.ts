/**
 * The principal a verified token describes: its subject, its scopes (RFC 8693 §4.2 `scope`, RFC 9068
 * §2.2.3; or the `scp` claim several identity providers use) and every claim.
 */
import { type AuthUser, isScopeToken } from '@charter/core';
import type { JwtPayload } from '@charter/jwt';

/** Splits a space-delimited scope string (RFC 6749 §3.3) into its tokens. */
function splitScope(value: string): string[] {
  return value.split(' ');
}

function scopeList(value: unknown): unknown[] | undefined {
  if (typeof value === 'string') return splitScope(value);
  if (Array.isArray(value)) return value;
  return undefined;
}

/**
 * The scopes a token grants, deduplicated in order: from `scope` when it is a string (the standard
 * claim, RFC 8693 §4.2), else from `scp` as a space-delimited string or an array of strings. A claim of
 * another type, and any entry that is not an RFC 6749 §3.3 scope-token, grants nothing (fail closed).
 */
export function scopesFromClaims(payload: JwtPayload): readonly string[] {
  const scope = payload.scope;
  const list = typeof scope === 'string' ? splitScope(scope) : (scopeList(payload.scp) ?? []);
  return Object.freeze([...new Set(list.filter(isScopeToken))]);
}

/** `ctx.state.user` for a verified token: `{ sub, scopes, claims }`. */
export function userFromPayload(payload: JwtPayload): AuthUser {
  return Object.freeze({
    sub: typeof payload.sub === 'string' ? payload.sub : undefined,
    scopes: scopesFromClaims(payload),
    claims: Object.freeze({ ...payload }),
  });
}

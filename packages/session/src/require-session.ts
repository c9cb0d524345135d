// requireSession(): the authentication guard for routes that need a signed-in session.
import { formatChallenge, type Hooks, UnauthorizedError, withHookTraits } from '@charter/core';
import { sessionSlot } from './request-session.ts';

/** Options of `requireSession(options?)`. */
export interface RequireSessionOptions {
  /** Protection space in the challenge (RFC 9110 §11.5); default `api`. */
  realm?: string;
}

/** The challenge scheme of a 401 from `requireSession`: cookies have no registered scheme, so it is named plainly. */
export const SESSION_CHALLENGE_SCHEME = 'Cookie';

/**
 * Refuses, in preBody (before the body is read), a request whose session has no signed-in user:
 * 401 with `WWW-Authenticate: Cookie realm="api"` (RFC 9110 §15.5.2 requires a challenge on every
 * 401; no registered scheme describes cookies, and browsers show no login dialog for an unknown
 * one). Register it after `session()`. Declares the `authenticates` trait for the App's guards.
 */
export function requireSession(options: RequireSessionOptions = {}): Hooks {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('requireSession options must be an object');
  const realm = options.realm ?? 'api';
  if (typeof realm !== 'string' || realm === '') {
    throw new TypeError('requireSession option "realm" must be a non-empty string');
  }
  // Formatted once: a realm with control characters throws here, at construction.
  const challenge = formatChallenge({ scheme: SESSION_CHALLENGE_SCHEME, params: { realm } });
  const hooks: Hooks = {
    preBody(ctx) {
      const current = sessionSlot(ctx.state);
      if (current === undefined) {
        throw new Error(
          'requireSession() found no session: register session({ secret }) before it on this route',
        );
      }
      if (current.user === undefined) {
        throw new UnauthorizedError({
          detail: 'A signed-in session is required to access this resource.',
          challenge,
        });
      }
    },
  };
  return withHookTraits(hooks, { authenticates: true, usesSession: true });
}

import { unauthorized } from './challenge.ts';
import { type SecurityScheme, requiresPayloadAuth } from './schemes.ts';
import { authorizeScopes } from './scopes.ts';
import type { AnyContext, AuthSpec, Hooks } from '../types/index.ts';

/**
 * The hook layer that makes a route's declared `auth` binding, not just documentation. The App puts
 * it after every other layer of the route, so it sees what the authenticating hooks left:
 *
 * - preBody: header-only authentication (bearer, basic, apiKey, JWK, mutual TLS, sessions) has run by
 *   now, so a request without a principal gets 401 and one with too few scopes 403, both before the
 *   body is read (an unauthenticated upload is never consumed). The one exception is a scheme that
 *   requires payload authentication: its credentials cover the body, so they are checked after it.
 * - beforeHandle: the principal and scopes again (cheap; the first real check for payload schemes),
 *   and, when the scheme requires payload authentication and the route did not opt out, proof that
 *   the credentials covered the body (`ctx.state.auth.payloadVerified`).
 *
 * Declaring `auth` with no hook that authenticates therefore refuses everyone (fail closed); the boot
 * guards warn about it (`auth-unenforced`). Returns undefined when the route declares no auth, so such
 * routes keep their direct path.
 */
export function routeAuthHooks(
  auth: AuthSpec | undefined,
  schemes: Readonly<Record<string, SecurityScheme>> | undefined,
): Hooks | undefined {
  if (auth === undefined) return undefined;
  const scopes = Object.freeze([...(auth.scopes ?? [])]);
  const scheme = schemes?.[auth.scheme];
  const payloadRequired = scheme !== undefined && requiresPayloadAuth(scheme) && auth.payload !== false;
  // An optional auth judges only the callers that authenticated: an anonymous request has no
  // principal, and the authenticating hook has already refused bad credentials.
  const check = auth.optional
    ? (ctx: AnyContext): void => {
        if (ctx.state.user !== undefined) authorizeScopes(ctx.state, scopes);
      }
    : (ctx: AnyContext): void => authorizeScopes(ctx.state, scopes);
  if (!payloadRequired) return { preBody: check, beforeHandle: check };
  return {
    preBody(ctx: AnyContext): void {
      if (ctx.state.user !== undefined) check(ctx);
    },
    beforeHandle(ctx: AnyContext): void {
      check(ctx);
      if (auth.optional === true && ctx.state.user === undefined) return;
      if (ctx.state.auth?.payloadVerified !== true) {
        throw unauthorized({
          error: 'invalid_request',
          description: `The ${auth.scheme} scheme requires credentials that cover the request body.`,
        });
      }
    },
  };
}

/**
 * Authorization by scope (OAuth 2 scopes, RFC 6749 §3.3; the `insufficient_scope` error of RFC 6750
 * §3.1). Scopes are compared exactly: they are case-sensitive strings.
 */
import { insufficientScope, unauthorized } from './challenge.ts';
import { isScopeToken, resolveRealm } from './credentials.ts';
import type { Hooks, State } from '../types/index.ts';

/** When `requireScopes` checks: before the body is read (default) or after validation. */
export type ScopePhase = 'preBody' | 'beforeHandle';

/** `all`: the principal needs every listed scope (default); `any`: one of them is enough. */
export type ScopeMatch = 'all' | 'any';

/** Options of `authorizeScopes`. */
export interface AuthorizeScopesOptions {
  /** `all` (default) or `any`. */
  match?: ScopeMatch;
  /** Realm of the 401/403 challenge; default `api`. */
  realm?: string;
}

/** Options of `requireScopes`. */
export interface RequireScopesOptions extends AuthorizeScopesOptions {
  /**
   * `preBody` (default): a caller with too few scopes gets 403 before the body is read, so even a
   * malformed body is answered 403, not 400. `beforeHandle`: validation runs first (use it when the
   * authenticating hook itself needs the body, e.g. a signature over the payload).
   */
  phase?: ScopePhase;
}

/**
 * Checks the principal on `state` against `required` scopes. Throws a 401 (`unauthorized()`) when there
 * is no `state.user`, and a 403 `insufficient_scope` whose challenge lists `required` when scopes are
 * missing. With no required scopes, any principal passes.
 */
export function authorizeScopes(
  state: State,
  required: readonly string[],
  opts: AuthorizeScopesOptions = {},
): void {
  const user = state.user;
  if (user === undefined) throw unauthorized({ realm: opts.realm });
  if (required.length === 0) return;
  const granted = user.scopes;
  const ok =
    opts.match === 'any'
      ? required.some((scope) => granted.includes(scope))
      : required.every((scope) => granted.includes(scope));
  if (!ok) {
    // Answer in the authenticating scheme's own challenge (realm, resource_metadata) unless told otherwise.
    const challenge = state.auth?.challenge;
    throw insufficientScope(required, {
      realm: opts.realm ?? challenge?.realm,
      scheme: challenge?.scheme,
      params: challenge?.params,
    });
  }
}

/** Validates the scope list and options of `requireScopes`; throws a TypeError naming the problem. */
function resolveRequireScopes(scopes: readonly string[], opts: RequireScopesOptions): readonly string[] {
  if (!Array.isArray(scopes)) throw new TypeError('requireScopes needs an array of scopes');
  for (const scope of scopes) {
    if (!isScopeToken(scope)) {
      throw new TypeError(
        `requireScopes: ${JSON.stringify(scope)} is not a scope (RFC 6749 §3.3 scope-token)`,
      );
    }
  }
  if (opts.phase !== undefined && opts.phase !== 'preBody' && opts.phase !== 'beforeHandle') {
    throw new TypeError('requireScopes option "phase" must be "preBody" or "beforeHandle"');
  }
  if (opts.match !== undefined && opts.match !== 'all' && opts.match !== 'any') {
    throw new TypeError('requireScopes option "match" must be "all" or "any"');
  }
  if (opts.realm !== undefined) resolveRealm('requireScopes', opts.realm);
  if (opts.match === 'any' && scopes.length === 0) {
    throw new TypeError('requireScopes with match "any" needs at least one scope');
  }
  return Object.freeze([...new Set(scopes)]);
}

/**
 * Hooks that refuse a request whose principal lacks `scopes` (403), or that has no principal (401).
 * Register them after the authenticating hook. In `preBody` (default) the check runs before the body is
 * read; with `phase: 'beforeHandle'` it runs after validation.
 */
export function requireScopes(scopes: readonly string[], opts: RequireScopesOptions = {}): Hooks {
  const required = resolveRequireScopes(scopes, opts);
  const check = { match: opts.match, realm: opts.realm };
  const run = (ctx: { readonly state: State }): void => authorizeScopes(ctx.state, required, check);
  return (opts.phase ?? 'preBody') === 'preBody' ? { preBody: run } : { beforeHandle: run };
}

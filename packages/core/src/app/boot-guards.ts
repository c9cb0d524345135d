import { assertStrongSecret } from '../security/index.ts';
import type { HookTraits } from '../types/index.ts';
import type { ResolvedAppOptions } from './options.ts';

/** One finding of the boot guards. */
export interface SecurityIssue {
  /** Stable identifier of the rule, e.g. `csrf-missing`. */
  readonly code: SecurityIssueCode;
  /** `error` issues refuse to boot in production; `warning` issues are logged. */
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** `METHOD /path` of the route concerned, when the issue is about one route. */
  readonly route?: string;
}

export type SecurityIssueCode =
  | 'cors-wildcard-credentials'
  | 'weak-secret'
  | 'csrf-missing'
  | 'auth-missing'
  | 'auth-unenforced'
  | 'proxy-posture-missing'
  | 'insecure-in-production';

/** Thrown by `assertSecureConfig` (and at boot) in production when an `error` issue is found. */
export class InsecureConfigError extends Error {
  readonly issues: readonly SecurityIssue[];
  constructor(issues: readonly SecurityIssue[]) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    super(
      `Refusing an insecure configuration (${errors.length} issue${errors.length === 1 ? '' : 's'}):\n` +
        errors.map((issue) => `- [${issue.code}] ${issue.message}`).join('\n'),
    );
    this.name = 'InsecureConfigError';
    this.issues = issues;
  }
}

/** What the guards need to know about one route. */
export interface GuardedRoute {
  readonly method: string;
  readonly path: string;
  /** The traits of every hook layer that applies to the route, outermost first. */
  readonly traits: readonly HookTraits[];
  /** True when the route must be covered by an authenticating hook (tool-server and agent routes). */
  readonly requiresAuth: boolean;
  /** True when the route (or its group or plugin) declares `auth`. */
  readonly declaresAuth?: boolean;
}

/** Options of `app.assertSecureConfig(options?)`. */
export interface AssertSecureConfigOptions {
  /** Judge as production (throwing on errors) or not; default: the app's `production`. */
  production?: boolean;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Route meta key that marks a route as requiring authentication (`x-charter-require-auth` in OpenAPI). */
export const REQUIRE_AUTH_META = 'requireAuth';

function secretIssues(traits: HookTraits, production: boolean, route: string): SecurityIssue[] {
  const issues: SecurityIssue[] = [];
  for (const secret of traits.secrets ?? []) {
    try {
      assertStrongSecret(secret.value, secret.where, { production });
    } catch (error) {
      issues.push({ code: 'weak-secret', severity: 'error', message: (error as Error).message, route });
    }
  }
  return issues;
}

/**
 * Every boot guard, over the app's options and routes. Pure: the caller decides whether to throw
 * (production) or log (elsewhere).
 */
export function collectSecurityIssues(
  options: ResolvedAppOptions,
  routes: readonly GuardedRoute[],
  production: boolean,
): SecurityIssue[] {
  const issues: SecurityIssue[] = [];
  const security = options.security;
  const seenSecrets = new Set<HookTraits>();
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const cors = route.traits.find((t) => t.cors !== undefined)?.cors;
    if (cors !== undefined && cors.anyOrigin && cors.credentials) {
      issues.push({
        code: 'cors-wildcard-credentials',
        severity: 'error',
        route: name,
        message: `${name} has a CORS policy that admits every origin with credentials: any site could act as the signed-in user`,
      });
    }
    for (const traits of route.traits) {
      if (production) {
        for (const reason of traits.insecureInProduction ?? []) {
          issues.push({
            code: 'insecure-in-production',
            severity: 'error',
            route: name,
            message: `${name}: ${reason}`,
          });
        }
      }
      if (seenSecrets.has(traits)) continue;
      seenSecrets.add(traits);
      issues.push(...secretIssues(traits, production, name));
    }
    const usesSession = route.traits.some((t) => t.usesSession === true);
    const csrfProtected = route.traits.some((t) => t.csrfProtection === true);
    if (usesSession && !csrfProtected && STATE_CHANGING.has(route.method) && security.csrf !== 'off') {
      issues.push({
        code: 'csrf-missing',
        severity: 'error',
        route: name,
        message:
          `${name} changes state with a cookie session but has no CSRF protection: add csrf() to its hooks, ` +
          'or set the App option csrf: "off" if another defence covers it',
      });
    }
    if (route.requiresAuth && !route.traits.some((t) => t.authenticates === true)) {
      issues.push({
        code: 'auth-missing',
        severity: production && security.secureDefaults ? 'error' : 'warning',
        route: name,
        message: `${name} serves tools or agents but no authenticating hook covers it: add one, or mark the routes public`,
      });
    } else if (
      route.declaresAuth === true &&
      !route.traits.some((t) => t.authenticates === true || t.authenticatesOptionally === true)
    ) {
      // Not a hole (a declared auth with no principal refuses every request with 401), but
      // almost certainly a forgotten hook.
      issues.push({
        code: 'auth-unenforced',
        severity: 'warning',
        route: name,
        message: `${name} declares auth but no authenticating hook covers it, so every request gets 401: add an auth hook (bearer, basic, apiKey, jwk, mutualTls, requireSession...)`,
      });
    }
  }
  if (production && security.proxy.kind === 'unset') {
    issues.push({
      code: 'proxy-posture-missing',
      severity: 'warning',
      message:
        'No proxy posture is set: requests carrying X-Forwarded-For or Forwarded are refused. Set behindProxy ' +
        '("none", "loopback", { hops } or { cidrs }) to say which proxies sit in front of the app',
    });
  }
  return issues;
}

/**
 * The answers the framework gives on a route by itself, without the handler: what the OpenAPI
 * document lists on each operation beside the declared responses, so a client generated from it
 * can read every answer the server may send. Each is an RFC 9457 `application/problem+json` document.
 */
import type { AnyRouteDefinition, AuthSpec, FrameworkAnswer, HookTraits } from '../types/index.ts';
import type { ResolvedAppOptions } from './options.ts';

// RFC 9110 §9.2.1: the methods the cross-origin guard leaves alone.
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

const CHALLENGE = {
  'WWW-Authenticate': {
    description: 'The authentication challenge (RFC 9110 §11.6.1; RFC 6750 §3 for bearer tokens)',
    schema: { type: 'string' },
  },
} as const;

/** What the answers of a route depend on. */
export interface FrameworkAnswerSource {
  readonly definition: AnyRouteDefinition;
  readonly auth: AuthSpec | undefined;
  /** The traits of every hook layer of the route (`Registry.traitsOf`). */
  readonly traits: readonly HookTraits[];
}

/**
 * The framework answers of one route, by status (one entry per status; hooks' own answers after the
 * pipeline's, a later one for the same status adding its headers to the first).
 */
export function frameworkAnswers(
  source: FrameworkAnswerSource,
  options: ResolvedAppOptions,
): readonly FrameworkAnswer[] {
  const request = source.definition.request ?? {};
  const out: FrameworkAnswer[] = [];
  // Step 0 and the router refuse a malformed request before any route code runs: control
  // characters or bad percent-encoding in the target, an invalid Host, a malformed header value
  // (Authorization included), forwarded headers without a proxy posture, a malformed body.
  out.push({ status: 400, description: 'The request is malformed (target, header fields or body)' });
  const auth = source.auth;
  const authenticates = source.traits.some(
    (t) => t.authenticates === true || t.authenticatesOptionally === true,
  );
  if (auth !== undefined || authenticates) {
    out.push({
      status: 401,
      description: 'Authentication is required, or the credentials sent are invalid',
      headers: CHALLENGE,
    });
  }
  if (auth !== undefined && (auth.scopes?.length ?? 0) > 0) {
    out.push({
      status: 403,
      description: `The credentials lack a scope the route requires (${(auth.scopes ?? []).join(', ')})`,
      headers: CHALLENGE,
    });
  }
  // The cross-origin guard (pipeline/cross-origin.ts) refuses a browser's cross-site state change.
  const method = source.definition.method;
  if (options.security.corsCrossOriginGuard && !SAFE_METHODS.has(method)) {
    out.push({
      status: 403,
      description: 'A cross-origin state change that no CORS policy of the route admits',
    });
  }
  if (request.body !== undefined) {
    out.push({ status: 413, description: `The body is larger than ${options.bodyLimitBytes} bytes` });
    out.push({ status: 415, description: 'The body is not in a media type the route accepts' });
  }
  if (
    request.params !== undefined ||
    request.query !== undefined ||
    request.headers !== undefined ||
    request.body !== undefined
  ) {
    out.push({
      status: 422,
      description: 'The request does not match the route schemas (`issues` lists each failure)',
      problem: 'validation',
    });
  }
  // RFC 6585 §5: from the runtime's header size limit, or from the App's header-count guard.
  out.push({ status: 431, description: 'The request header fields are too large or too many' });
  if (options.security.loadShedding !== undefined) {
    out.push({
      status: 503,
      description: 'The server is overloaded; retry later',
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before retrying',
          schema: { type: 'integer', minimum: 0 },
        },
      },
    });
  }
  if (options.requestTimeoutMs > 0) {
    out.push({
      status: options.requestTimeoutStatus,
      description: `The request did not complete within ${options.requestTimeoutMs} ms`,
    });
  }
  for (const traits of source.traits) out.push(...(traits.answers ?? []));
  return mergeByStatus(out);
}

/** One answer per status: the first description and problem shape, every header any of them names. */
function mergeByStatus(answers: readonly FrameworkAnswer[]): readonly FrameworkAnswer[] {
  const byStatus = new Map<number, FrameworkAnswer>();
  for (const answer of answers) {
    const seen = byStatus.get(answer.status);
    if (seen === undefined) {
      byStatus.set(answer.status, answer);
      continue;
    }
    const headers = { ...answer.headers, ...seen.headers };
    byStatus.set(answer.status, {
      ...seen,
      problem: seen.problem === 'validation' || answer.problem === 'validation' ? 'validation' : seen.problem,
      ...(Object.keys(headers).length > 0 && { headers }),
    });
  }
  return Object.freeze([...byStatus.values()].sort((a, b) => a.status - b.status));
}

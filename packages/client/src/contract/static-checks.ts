/** The checks that read a route's declaration only (no request is made). */
import type { RegisteredRoute } from '@charter/core';
import { pathParamNames } from '../path.ts';
import type { IssueSink, ResolvedContractTestOptions } from './issues.ts';
import {
  headerJsonSchema,
  REQUEST_PARTS,
  requestJsonSchema,
  responseJsonSchema,
  responsesOf,
} from './schemas.ts';

// RFC 9110 §9.3.1, §9.3.2, §9.3.5: content in a GET, HEAD or DELETE request has no defined semantics.
const SAFE_BODYLESS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE']);

function checkOperationId(
  route: RegisteredRoute,
  options: ResolvedContractTestOptions,
  sink: IssueSink,
): void {
  if (!options.requireOperationId || route.definition.openapi?.exclude === true) return;
  if (route.operationId === undefined || route.operationId === '') {
    sink.add(
      route,
      'missing-operation-id',
      'the route has no operationId, so the typed client and generated clients have no name for it',
    );
  }
}

function checkBody(route: RegisteredRoute, options: ResolvedContractTestOptions, sink: IssueSink): void {
  if (options.allowBodyOnSafeMethods || !SAFE_BODYLESS.has(route.method)) return;
  if (route.definition.request?.body !== undefined) {
    sink.add(
      route,
      'body-on-safe-method',
      `a ${route.method} request body has no defined semantics (RFC 9110 §9.3) and many clients and proxies drop it`,
    );
  }
}

function checkResponses(route: RegisteredRoute, sink: IssueSink): void {
  const statuses = Object.keys(responsesOf(route.definition)).map(Number);
  if (statuses.length === 0) {
    sink.add(route, 'no-declared-response', 'the route declares no response at all');
    return;
  }
  // 1xx-3xx: informational, success and redirection all tell the client the request worked.
  if (!statuses.some((status) => status >= 100 && status < 400)) {
    sink.add(
      route,
      'no-success-response',
      `the route declares only error statuses (${statuses.join(', ')}), no 1xx-3xx one`,
    );
  }
}

function checkParams(route: RegisteredRoute, sink: IssueSink): void {
  const names = pathParamNames(route.path);
  if (names.length > 0 && route.definition.request?.params === undefined) {
    const list = names.map((n) => `"${n}"`).join(', ');
    const what = names.length === 1 ? `the path parameter ${list} has` : `the path parameters ${list} have`;
    sink.add(
      route,
      'params-without-schema',
      `${what} no request.params schema, so the handler gets unchecked text`,
    );
  }
}

function checkDescribable(route: RegisteredRoute, sink: IssueSink): void {
  const definition = route.definition;
  for (const part of REQUEST_PARTS) {
    const result = requestJsonSchema(definition, part);
    if (result !== undefined && 'error' in result) {
      sink.add(route, 'schema-not-describable', `request.${part}: ${result.error}`);
    }
  }
  for (const [status, spec] of Object.entries(responsesOf(definition))) {
    const result = responseJsonSchema(definition, status);
    if (result !== undefined && 'error' in result) {
      sink.add(route, 'schema-not-describable', `responses[${status}].body: ${result.error}`);
    }
    for (const [name, header] of Object.entries(spec?.headers ?? {})) {
      if (header?.schema === undefined) continue;
      const described = headerJsonSchema(header.schema);
      if ('error' in described) {
        sink.add(route, 'schema-not-describable', `responses[${status}].headers.${name}: ${described.error}`);
      }
    }
  }
}

/** Every declaration-only check of one route. */
export function checkDeclaration(
  route: RegisteredRoute,
  options: ResolvedContractTestOptions,
  sink: IssueSink,
): void {
  checkOperationId(route, options, sink);
  checkBody(route, options, sink);
  checkResponses(route, sink);
  checkParams(route, sink);
  checkDescribable(route, sink);
}

/**
 * operationIds equal ignoring case: they collide in clients generated for case-insensitive
 * languages and in file names (exact duplicates are already refused at registration). The first
 * route keeps its name; each later one is reported once.
 */
export class OperationIdIndex {
  readonly #first = new Map<string, RegisteredRoute>();

  check(route: RegisteredRoute, sink: IssueSink): void {
    if (route.operationId === undefined) return;
    const key = route.operationId.toLowerCase();
    const earlier = this.#first.get(key);
    if (earlier === undefined) {
      this.#first.set(key, route);
      return;
    }
    sink.add(
      route,
      'duplicate-operation-id',
      `operationId "${route.operationId}" equals "${earlier.operationId}" (${earlier.method} ${earlier.path}) ignoring case`,
    );
  }
}

/**
 * `runContractTests(app)`: every registered route's declaration, examples and (in mock mode)
 * answers, checked against the route's own contract. Resolves a report; never throws for an issue.
 */
import type { RegisteredRoute } from '@charter/core';
import { checkExamples } from './example-checks.ts';
import {
  type ContractReport,
  type ContractTestOptions,
  IssueSink,
  resolveContractTestOptions,
} from './issues.ts';
import { checkMockAnswer } from './mock-checks.ts';
import { checkDeclaration, OperationIdIndex } from './static-checks.ts';
import { fuzzContract } from './fuzz.ts';

/** What `runContractTests` needs of an App (a Charter `App` has all of it). */
export interface ContractApp {
  ready(): Promise<unknown>;
  registeredRoutes(): readonly RegisteredRoute[];
  fetch(request: Request): Promise<Response>;
  readonly options: {
    readonly allowedContentTypes: readonly string[];
    readonly security: { readonly mockMode: boolean };
  };
}

/**
 * Checks every route of `app` against its contract and resolves `{ ok, checked, issues }`.
 *
 * @example
 * const report = await runContractTests(app);
 * expect(report.issues).toEqual([]);
 */
export async function runContractTests(
  app: ContractApp,
  options?: ContractTestOptions,
): Promise<ContractReport> {
  const resolved = resolveContractTestOptions(options);
  if (typeof app !== 'object' || app === null || typeof app.registeredRoutes !== 'function') {
    throw new TypeError('runContractTests(app): app must be a Charter App');
  }
  // Async plugins register their routes while installing: wait for all of them.
  await app.ready();
  const routes = app.registeredRoutes();
  const mockMode = app.options.security.mockMode;
  const sink = new IssueSink();
  const operationIds = new OperationIdIndex();
  for (const route of routes) {
    checkDeclaration(route, resolved, sink);
    operationIds.check(route, sink);
    await checkExamples(route, sink);
    if (mockMode) await checkMockAnswer(app, route, app.options.allowedContentTypes, sink);
  }
  if (resolved.fuzz === undefined) {
    const issues = Object.freeze([...sink.issues]);
    return Object.freeze({ ok: issues.length === 0, checked: routes.length, issues });
  }
  const fuzz = await fuzzContract(app, resolved.fuzz);
  const reported = resolved.fuzz.strict ? [...fuzz.findings, ...fuzz.warnings] : fuzz.findings;
  const issues = Object.freeze([...sink.issues, ...reported]);
  return Object.freeze({ ok: issues.length === 0, checked: routes.length, issues, fuzz });
}

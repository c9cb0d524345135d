import type { Scope } from '../app/scope.ts';

/**
 * Health and readiness routes. Bodies follow the IETF draft "Health Check Response Format for
 * HTTP APIs" (draft-inadarei-api-health-check): `application/health+json`, `status` of
 * `pass` or `fail`, and per-check results under `checks`.
 */
const HEALTH_TYPE = 'application/health+json';

export interface HealthCheckOptions {
  /** Default `/healthz`. */
  path?: string;
  /** Default `getHealth`. */
  operationId?: string;
}

/** A dependency check: resolve (or return true) when healthy; throw or return false when not. */
export type ReadinessCheck = () => boolean | void | Promise<boolean | void>;

export interface ReadinessCheckOptions {
  /** Default `/readyz`. */
  path?: string;
  /** Default `getReadiness`. */
  operationId?: string;
  /** Named dependency checks, run concurrently on every probe. */
  checks?: Record<string, ReadinessCheck>;
  /** A check slower than this fails; default 2000 ms. */
  checkTimeoutMs?: number;
}

interface CheckResult {
  status: 'pass' | 'fail';
  output?: string;
}

const noStore = { 'cache-control': 'no-store' };

export function registerHealthRoute(scope: Scope, options: HealthCheckOptions = {}): void {
  scope.route({
    method: 'GET',
    path: options.path ?? '/healthz',
    operationId: options.operationId ?? 'getHealth',
    summary: 'Liveness probe',
    responses: { 200: { description: 'The process is alive', contentType: HEALTH_TYPE } },
    handler: () => ({ status: 200, body: { status: 'pass' }, headers: noStore }),
  });
}

async function runCheck(check: ReadinessCheck, timeoutMs: number, production: boolean): Promise<CheckResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([Promise.resolve().then(check), timeout]);
    if (outcome === 'timeout') return { status: 'fail', output: `timed out after ${timeoutMs} ms` };
    return outcome === false ? { status: 'fail' } : { status: 'pass' };
  } catch (error) {
    // A failing dependency's message can describe internals (hosts, credentials): not in production.
    return production
      ? { status: 'fail' }
      : { status: 'fail', output: (error as Error)?.message ?? String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export function registerReadinessRoute(
  scope: Scope,
  options: ReadinessCheckOptions = {},
  isServing: () => boolean,
): void {
  const checks = Object.entries(options.checks ?? {});
  for (const [name, check] of checks) {
    if (typeof check !== 'function')
      throw new TypeError(`readinesscheck(): check "${name}" must be a function`);
  }
  const timeoutMs = options.checkTimeoutMs ?? 2000;
  const production = scope.registry.options.production;
  scope.route({
    method: 'GET',
    path: options.path ?? '/readyz',
    operationId: options.operationId ?? 'getReadiness',
    summary: 'Readiness probe',
    responses: {
      200: { description: 'Ready to serve traffic', contentType: HEALTH_TYPE },
      503: { description: 'Not ready: a check failed or the app is shutting down', contentType: HEALTH_TYPE },
    },
    handler: async () => {
      const results: Record<string, CheckResult[]> = {};
      let ok = isServing();
      const settled = await Promise.all(checks.map(([, check]) => runCheck(check, timeoutMs, production)));
      checks.forEach(([name], i) => {
        const result = settled[i] as CheckResult;
        if (result.status === 'fail') ok = false;
        results[name] = [result];
      });
      const body: Record<string, unknown> = { status: ok ? 'pass' : 'fail' };
      if (!isServing()) body.output = 'shutting down';
      if (checks.length > 0) body.checks = results;
      return ok ? { status: 200, body, headers: noStore } : { status: 503, body, headers: noStore };
    },
  });
}

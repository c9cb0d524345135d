import { type IssueLocation, type ValidationIssue, ValidationError } from '../errors/index.ts';
import {
  type AnySchema,
  applyCoercion,
  coerceFromIssues,
  flattenIssues,
  type StandardResult,
} from '../schema/index.ts';
import type { CompiledRoute, PartPlan } from './compiled-route.ts';
import type { RequestContext } from './context.ts';
import { withoutStack } from '../errors/without-stack.ts';

type Outcome = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

function outcome(result: StandardResult<unknown>, location: IssueLocation): Outcome {
  if (result.issues === undefined) return { ok: true, value: (result as { value: unknown }).value };
  return {
    ok: false,
    issues: flattenIssues(result.issues).map((issue) => ({
      in: location,
      path: issue.path,
      message: issue.message,
    })),
  };
}

function run(schema: AnySchema, input: unknown, location: IssueLocation): Outcome | Promise<Outcome> {
  const result = schema['~standard'].validate(input);
  return result instanceof Promise ? result.then((r) => outcome(r, location)) : outcome(result, location);
}

// Rounds of conversion for schemas without a JSON Schema: scalar, or array then element.
const MAX_COERCION_ROUNDS = 3;

/** Validates one text-valued part (params, query, headers), converting text where the schema asks. */
function validatePart(plan: PartPlan, raw: Record<string, unknown>): Outcome | Promise<Outcome> {
  if (plan.coercion !== undefined) return run(plan.schema, applyCoercion(raw, plan.coercion), plan.location);
  // No JSON Schema to plan from: validate, and where issues ask for another type, convert and retry.
  const attempt = (input: Record<string, unknown>, round: number): Outcome | Promise<Outcome> => {
    const settle = (o: Outcome): Outcome | Promise<Outcome> => {
      if (o.ok || round >= MAX_COERCION_ROUNDS) return o;
      const coerced = coerceFromIssues(input, o.issues);
      return coerced === undefined ? o : attempt(coerced, round + 1);
    };
    const o = run(plan.schema, input, plan.location);
    return o instanceof Promise ? o.then(settle) : settle(o);
  };
  return attempt(raw, 0);
}

/**
 * Step 4a: params, query and headers. All three are checked before the body is read, and every
 * issue among them is reported at once (422). Sync schemas stay off the microtask queue.
 */
export function validateRequestParts(route: CompiledRoute, ctx: RequestContext): void | Promise<void> {
  if (route.paramsOnly !== undefined) return validateParamsOnly(route.paramsOnly, ctx);
  const params = route.params && validatePart(route.params, ctx.params as Record<string, unknown>);
  const query = route.query && validatePart(route.query, ctx.query as Record<string, unknown>);
  const headers = route.headers && validatePart(route.headers, ctx.headers as Record<string, unknown>);
  if (params instanceof Promise || query instanceof Promise || headers instanceof Promise) {
    return Promise.all([params, query, headers]).then(([p, q, h]) => apply(ctx, p, q, h));
  }
  apply(ctx, params, query, headers);
}

/**
 * The common case of a route with a path parameter and no query or header schema: the same steps
 * as `validatePart` and `apply`, with the valid value read straight off the schema's result (no
 * outcome object per request); a failure goes through `apply` for the same 422.
 */
function validateParamsOnly(plan: PartPlan, ctx: RequestContext): void | Promise<void> {
  const input = applyCoercion(ctx.params as Record<string, unknown>, plan.coercion!);
  const result = plan.schema['~standard'].validate(input);
  if (result instanceof Promise) {
    return result.then((settled) => acceptParams(ctx, settled, plan.location));
  }
  acceptParams(ctx, result, plan.location);
}

function acceptParams(ctx: RequestContext, result: StandardResult<unknown>, location: IssueLocation): void {
  if (result.issues === undefined) ctx.params = (result as { value: unknown }).value;
  else apply(ctx, outcome(result, location), undefined, undefined);
}

function apply(
  ctx: RequestContext,
  params: Outcome | undefined,
  query: Outcome | undefined,
  headers: Outcome | undefined,
): void {
  if (params?.ok === false || query?.ok === false || headers?.ok === false) {
    const issues: ValidationIssue[] = [];
    for (const o of [params, query, headers]) if (o !== undefined && !o.ok) issues.push(...o.issues);
    throw withoutStack(() => new ValidationError(issues));
  }
  if (params !== undefined) ctx.params = (params as { value: unknown }).value;
  if (query !== undefined) ctx.query = (query as { value: unknown }).value;
  if (headers !== undefined) ctx.headers = (headers as { value: unknown }).value;
}

/** Step 4b: the parsed body against `request.body` (422 on failure). */
export function validateBody(schema: AnySchema, ctx: RequestContext, parsed: unknown): void | Promise<void> {
  const result = schema['~standard'].validate(parsed);
  if (result instanceof Promise) return result.then((settled) => acceptBody(ctx, settled));
  acceptBody(ctx, result);
}

function acceptBody(ctx: RequestContext, result: StandardResult<unknown>): void {
  // The valid body is read straight off the result: no outcome object on the common path.
  if (result.issues === undefined) {
    ctx.body = (result as { value: unknown }).value;
    return;
  }
  const o = outcome(result, 'body') as Extract<Outcome, { ok: false }>;
  throw withoutStack(() => new ValidationError(o.issues));
}

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
  const plans = [route.params, route.query, route.headers];
  const outcomes: (Outcome | Promise<Outcome> | undefined)[] = [];
  let pending = false;
  for (const plan of plans) {
    if (plan === undefined) {
      outcomes.push(undefined);
      continue;
    }
    const raw = (
      plan.location === 'params' ? ctx.params : plan.location === 'query' ? ctx.query : ctx.headers
    ) as Record<string, unknown>;
    const o = validatePart(plan, raw);
    if (o instanceof Promise) pending = true;
    outcomes.push(o);
  }
  if (pending) return Promise.all(outcomes).then((settled) => apply(ctx, settled));
  apply(ctx, outcomes as (Outcome | undefined)[]);
}

function apply(ctx: RequestContext, outcomes: readonly (Outcome | undefined)[]): void {
  let issues: ValidationIssue[] | undefined;
  for (const o of outcomes) if (o !== undefined && !o.ok) (issues ??= []).push(...o.issues);
  if (issues !== undefined) throw new ValidationError(issues);
  const [params, query, headers] = outcomes;
  if (params?.ok) ctx.params = params.value;
  if (query?.ok) ctx.query = query.value;
  if (headers?.ok) ctx.headers = headers.value;
}

/** Step 4b: the parsed body against `request.body` (422 on failure). */
export function validateBody(schema: AnySchema, ctx: RequestContext, parsed: unknown): void | Promise<void> {
  const o = run(schema, parsed, 'body');
  const settle = (r: Outcome): void => {
    if (!r.ok) throw new ValidationError(r.issues);
    ctx.body = r.value;
  };
  return o instanceof Promise ? o.then(settle) : settle(o);
}

/**
 * Combining hook sets: `every` (all must pass), `some` (one must pass), `except` (skip for some
 * requests). Each returns one Hooks object, usable wherever hooks are (app.use, groups, routes,
 * and inside another combinator), carrying traits derived from its parts so the App's boot guards
 * still see what the combination guarantees.
 *
 * The guard phases are onRequest, preBody and beforeHandle: a hook there passes by returning
 * nothing and refuses by returning a Response or throwing.
 */
import { splitUrl } from '../pipeline/request-parts.ts';
import {
  type AnyContext,
  type AnyHandlerResult,
  type HookTraits,
  type Hooks,
  HTTP_METHODS,
  hookTraitsOf,
  type PreBodyContext,
  withHookTraits,
} from '../types/index.ts';

type MaybePromise<T> = T | Promise<T>;

function assertHooks(where: string, list: readonly unknown[]): readonly Hooks[] {
  if (list.length === 0) throw new TypeError(`${where}() needs at least one hook set`);
  list.forEach((hooks, index) => {
    if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
      throw new TypeError(`${where}() argument ${index + 1} must be a Hooks object`);
    }
  });
  return list as readonly Hooks[];
}

/** Origins any of the sets trusts (an origin one branch trusts may reach that branch). */
function mergeTrust(traits: readonly HookTraits[]): ((origin: string) => boolean) | undefined {
  const trusts = traits.flatMap((t) => (t.trustsOrigin === undefined ? [] : [t.trustsOrigin]));
  if (trusts.length === 0) return undefined;
  return (origin) => trusts.some((trust) => trust(origin));
}

/** The CORS traits of several hook sets as one: an origin any of them allows. */
function mergeCors(list: readonly HookTraits[]): HookTraits['cors'] {
  const policies = list.flatMap((t) => (t.cors === undefined ? [] : [t.cors]));
  if (policies.length === 0) return undefined;
  if (policies.length === 1) return policies[0];
  return {
    allowsOrigin: (origin) => policies.some((p) => p.allowsOrigin(origin)),
    anyOrigin: policies.some((p) => p.anyOrigin),
    credentials: policies.some((p) => p.credentials),
  };
}

/** Every secret any part relies on: the boot guards check them all, whichever part runs. */
function mergeSecrets(list: readonly HookTraits[]): HookTraits['secrets'] {
  const secrets = list.flatMap((t) => t.secrets ?? []);
  return secrets.length === 0 ? undefined : secrets;
}

/** Every answer any of the sets may give: one of them may run and answer (OpenAPI documents them all). */
function mergeAnswers(list: readonly HookTraits[]): HookTraits['answers'] {
  const answers = list.flatMap((t) => t.answers ?? []);
  return answers.length === 0 ? undefined : answers;
}

function traitsOf(list: readonly Hooks[]): HookTraits[] {
  return list.map((hooks) => hookTraitsOf(hooks) ?? {});
}

/** Drops undefined members, so an absent trait is absent rather than `undefined`. */
function defined(traits: HookTraits): HookTraits {
  const out: HookTraits = {};
  for (const [key, value] of Object.entries(traits)) {
    if (value !== undefined && value !== false) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * The hooks of one phase as one hook: each runs in order, awaited, and the first that answers with a
 * Response answers for all (the rest do not run); a throw propagates as the hook's own would.
 */
function firstResponse<Args extends unknown[]>(
  hooks: ReadonlyArray<(...args: Args) => unknown>,
): (...args: Args) => Promise<Response | undefined> {
  return async (...args) => {
    for (const hook of hooks) {
      const answer = await hook(...args);
      if (answer instanceof Response) return answer;
    }
    return undefined;
  };
}

/** Runs the non-guard hooks of several sets in order, as if the sets were registered one after another. */
function sequence(list: readonly Hooks[]): Hooks {
  const out: Hooks = {};
  const afterHandle = list.flatMap((h) => (h.afterHandle === undefined ? [] : [h.afterHandle]));
  if (afterHandle.length > 0) {
    out.afterHandle = async (ctx, result) => {
      let current: AnyHandlerResult = result;
      let replaced = false;
      for (const hook of afterHandle) {
        const next = await hook(ctx, current);
        if (next !== undefined) {
          current = next;
          replaced = true;
        }
      }
      return replaced ? current : undefined;
    };
  }
  const onError = list.flatMap((h) => (h.onError === undefined ? [] : [h.onError]));
  if (onError.length > 0) out.onError = firstResponse(onError);
  const onSend = list.flatMap((h) => (h.onSend === undefined ? [] : [h.onSend]));
  if (onSend.length > 0) {
    out.onSend = async (response, ctx, request) => {
      let current = response;
      for (const hook of onSend) {
        const next = await hook(current, ctx, request);
        if (next instanceof Response) current = next;
      }
      return current === response ? undefined : current;
    };
  }
  const onResponse = list.flatMap((h) => (h.onResponse === undefined ? [] : [h.onResponse]));
  if (onResponse.length > 0) {
    out.onResponse = async (response, ctx, request) => {
      for (const hook of onResponse) await hook(response, ctx, request);
    };
  }
  return out;
}

/**
 * All of the hook sets, in order: in each guard phase the first refusal answers and the rest do
 * not run; the other phases run every set's hook in order (afterHandle results chain, the first
 * onError Response answers, onSend replacements chain). The same as registering the sets one
 * after another, as one object. Traits: the union (what any part does, the combination does).
 */
export function every(...hooks: Hooks[]): Hooks {
  const list = assertHooks('every', hooks);
  const out: Hooks = sequence(list);
  const onRequest = list.flatMap((h) => (h.onRequest === undefined ? [] : [h.onRequest]));
  if (onRequest.length > 0) out.onRequest = firstResponse(onRequest);
  const preBody = list.flatMap((h) => (h.preBody === undefined ? [] : [h.preBody]));
  if (preBody.length > 0) out.preBody = firstResponse(preBody);
  const beforeHandle = list.flatMap((h) => (h.beforeHandle === undefined ? [] : [h.beforeHandle]));
  if (beforeHandle.length > 0) out.beforeHandle = firstResponse(beforeHandle);
  const traits = traitsOf(list);
  return withHookTraits(
    out,
    defined({
      authenticates: traits.some((t) => t.authenticates === true),
      csrfProtection: traits.some((t) => t.csrfProtection === true),
      usesSession: traits.some((t) => t.usesSession === true),
      cors: mergeCors(traits),
      secrets: mergeSecrets(traits),
      trustsOrigin: mergeTrust(traits),
      replaysResponses: traits.some((t) => t.replaysResponses === true) || undefined,
      answers: mergeAnswers(traits),
    }),
  );
}

/** A refusal: a Response returned, or a value thrown. */
type Refusal = { readonly response: Response } | { readonly thrown: unknown };

/** Runs one guard hook: undefined when it passed, the refusal otherwise. */
async function attempt(run: () => MaybePromise<Response | void>): Promise<Refusal | undefined> {
  try {
    const answer = await run();
    return answer instanceof Response ? { response: answer } : undefined;
  } catch (thrown) {
    return { thrown };
  }
}

function answer(refusal: Refusal): Response {
  if ('response' in refusal) return refusal.response;
  throw refusal.thrown;
}

/** Which branch of a `some` accepted a request so far, and what the failed branches answered. */
interface Verdict {
  /** Index of the branch that passed every guard phase so far; -1 once all have refused. */
  branch: number;
  /** Guard phases each branch has run (0 none, 1 onRequest, 2 preBody, 3 beforeHandle). */
  readonly reached: number[];
  readonly refusals: (Refusal | undefined)[];
}

/**
 * Passes when any one of the hook sets passes every guard phase it has; when all refuse, answers
 * with the refusal of the first set (in argument order). Sets are tried in order and the first to
 * pass is the one that accepted: later sets do not run for that phase.
 *
 * - When every set guards in onRequest only, `some` decides in onRequest (unmatched paths included).
 * - Otherwise it decides per route: at preBody a set's onRequest guard runs first (given
 *   `ctx.request`), then its preBody; at beforeHandle the accepting set's beforeHandle runs, and
 *   if it refuses the next sets are tried, catching up on their earlier guards.
 * - afterHandle, onError, onSend and onResponse run for the accepting set only (none when all
 *   refused, or before a set has accepted).
 *
 * Traits: only what every set guarantees (authenticates, csrfProtection when all have them);
 * usesSession, cors and secrets when any set has them (they only make the boot guards stricter
 * or tell the cross-origin guard what a set may answer).
 */
export function some(...hooks: Hooks[]): Hooks {
  const list = assertHooks('some', hooks);
  const traits = traitsOf(list);
  const derived = defined({
    authenticates: traits.every((t) => t.authenticates === true),
    csrfProtection: traits.every((t) => t.csrfProtection === true),
    usesSession: traits.some((t) => t.usesSession === true),
    cors: mergeCors(traits),
    secrets: mergeSecrets(traits),
    trustsOrigin: mergeTrust(traits),
    replaysResponses: traits.some((t) => t.replaysResponses === true) || undefined,
    answers: mergeAnswers(traits),
  });
  const onRequestOnly = list.every((h) => h.preBody === undefined && h.beforeHandle === undefined);
  const hasOthers = list.some(
    (h) =>
      h.afterHandle !== undefined ||
      h.onError !== undefined ||
      h.onSend !== undefined ||
      h.onResponse !== undefined,
  );

  if (onRequestOnly && !hasOthers) {
    return withHookTraits(
      {
        async onRequest(request) {
          let first: Refusal | undefined;
          for (const branch of list) {
            if (branch.onRequest === undefined) return;
            const refusal = await attempt(() => branch.onRequest?.(request));
            if (refusal === undefined) return;
            first ??= refusal;
          }
          if (first !== undefined) return answer(first);
        },
      },
      derived,
    );
  }

  const verdicts = new WeakMap<object, Verdict>();

  const runPhase = (branch: Hooks, phase: number, ctx: AnyContext): MaybePromise<Response | void> => {
    if (phase === 1) return branch.onRequest?.(ctx.request);
    if (phase === 2) return branch.preBody?.(ctx as unknown as PreBodyContext);
    return branch.beforeHandle?.(ctx);
  };

  /** Brings branches up to `phase`, in order, until one passes; answers the first refusal if none does. */
  const decide = async (ctx: AnyContext, phase: number): Promise<Response | void> => {
    let verdict = verdicts.get(ctx);
    if (verdict === undefined) {
      verdict = { branch: 0, reached: list.map(() => 0), refusals: list.map(() => undefined) };
      verdicts.set(ctx, verdict);
    }
    for (let index = Math.max(verdict.branch, 0); index < list.length; index++) {
      const branch = list[index] as Hooks;
      let refusal: Refusal | undefined;
      while (refusal === undefined && (verdict.reached[index] as number) < phase) {
        const next = (verdict.reached[index] as number) + 1;
        verdict.reached[index] = next;
        refusal = await attempt(() => runPhase(branch, next, ctx));
      }
      if (refusal === undefined) {
        verdict.branch = index;
        return;
      }
      verdict.refusals[index] = refusal;
    }
    verdict.branch = -1;
    const first = verdict.refusals.find((r) => r !== undefined);
    if (first !== undefined) return answer(first);
  };

  const accepted = (ctx: AnyContext | undefined): Hooks | undefined => {
    const verdict = ctx === undefined ? undefined : verdicts.get(ctx);
    return verdict === undefined || verdict.branch < 0 ? undefined : list[verdict.branch];
  };

  const out: Hooks = {
    preBody: (ctx) => decide(ctx as unknown as AnyContext, 2),
    beforeHandle: (ctx) => decide(ctx, 3),
  };
  if (list.some((h) => h.afterHandle !== undefined)) {
    out.afterHandle = (ctx, result) => accepted(ctx)?.afterHandle?.(ctx, result);
  }
  if (list.some((h) => h.onError !== undefined)) {
    out.onError = (error, ctx, request) => accepted(ctx)?.onError?.(error, ctx, request);
  }
  if (list.some((h) => h.onSend !== undefined)) {
    out.onSend = (response, ctx, request) => accepted(ctx)?.onSend?.(response, ctx, request);
  }
  if (list.some((h) => h.onResponse !== undefined)) {
    out.onResponse = (response, ctx, request) => accepted(ctx)?.onResponse?.(response, ctx, request);
  }
  return withHookTraits(out, derived);
}

/** Which requests `except` skips its hooks for. */
export type ExceptCondition =
  | readonly string[]
  | { readonly paths?: readonly string[]; readonly methods?: readonly string[] }
  | ((request: Request) => boolean);

/** A compiled condition: true when the hooks are skipped for the request. */
type Matcher = (request: Request) => boolean;

function pathMatcher(paths: readonly string[]): (pathname: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const path of paths) {
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new TypeError(`except() path ${JSON.stringify(path)} must be a string starting with "/"`);
    }
    const star = path.indexOf('*');
    if (star === -1) exact.add(path);
    else if (star === path.length - 1) prefixes.push(path.slice(0, -1));
    else throw new TypeError(`except() path ${JSON.stringify(path)} may have "*" only at its end`);
  }
  return (pathname) => exact.has(pathname) || prefixes.some((prefix) => pathname.startsWith(prefix));
}

function methodSet(methods: readonly string[]): ReadonlySet<string> {
  for (const method of methods) {
    if (!(HTTP_METHODS as readonly string[]).includes(method)) {
      throw new TypeError(
        `except() method ${JSON.stringify(method)} must be one of ${HTTP_METHODS.join(', ')}`,
      );
    }
  }
  return new Set(methods);
}

/** Compiles a condition, and says whether it skips only safe methods (which keeps CSRF protection whole). */
function compileCondition(condition: ExceptCondition): { matches: Matcher; safeMethodsOnly: boolean } {
  if (typeof condition === 'function') {
    return { matches: (request) => condition(request) === true, safeMethodsOnly: false };
  }
  let paths: readonly string[] | undefined;
  let methods: readonly string[] | undefined;
  if (Array.isArray(condition)) {
    const list = condition as readonly string[];
    if (list.length === 0) throw new TypeError('except() needs at least one path or method');
    const isPath = (entry: unknown): boolean => typeof entry === 'string' && entry.startsWith('/');
    if (list.every(isPath)) paths = list;
    else if (!list.some(isPath)) methods = list;
    else
      throw new TypeError(
        'except() takes a list of paths or a list of methods, not both; use { paths, methods }',
      );
  } else if (typeof condition === 'object' && condition !== null) {
    const { paths: p, methods: m } = condition as { paths?: readonly string[]; methods?: readonly string[] };
    if (p !== undefined && !Array.isArray(p)) throw new TypeError('except() option "paths" must be an array');
    if (m !== undefined && !Array.isArray(m))
      throw new TypeError('except() option "methods" must be an array');
    if ((p?.length ?? 0) === 0 && (m?.length ?? 0) === 0) {
      throw new TypeError('except() needs at least one path or method');
    }
    paths = p?.length === 0 ? undefined : p;
    methods = m?.length === 0 ? undefined : m;
  } else {
    throw new TypeError(
      'except() condition must be a list of paths or methods, { paths, methods }, or a function',
    );
  }
  const pathMatches = paths === undefined ? undefined : pathMatcher(paths);
  const methodMatches = methods === undefined ? undefined : methodSet(methods);
  const matches: Matcher = (request) => {
    if (methodMatches !== undefined && !methodMatches.has(request.method)) return false;
    return pathMatches === undefined || pathMatches(splitUrl(request.url).pathname);
  };
  const safeMethodsOnly =
    methodMatches !== undefined &&
    [...methodMatches].every((m) => m === 'GET' || m === 'HEAD' || m === 'OPTIONS');
  return { matches, safeMethodsOnly };
}

/**
 * The hooks, skipped for requests matching `condition`: a list of paths (exact, or a prefix ending
 * in `*`: `/docs/*` matches below `/docs/`, `/docs*` also `/docs` itself), a list of methods,
 * `{ paths, methods }` (both must match), or a predicate on the request. Paths are compared as
 * sent, percent-encoding included, so another spelling of a path never skips a guard.
 *
 * Every phase is skipped for a matching request. Without a context (an unmatched 404/405 in
 * onError, onSend, onResponse) the request is unknown, and the hooks run.
 *
 * Traits: the inner ones, minus `authenticates` (some requests are no longer covered) and minus
 * `csrfProtection` unless only safe methods are skipped (CSRF concerns state-changing methods).
 * `cors`, `usesSession` and `secrets` stay: the origins a policy trusts stay trusted, and the
 * others only make the boot guards stricter.
 */
export function except(condition: ExceptCondition, hooks: Hooks): Hooks {
  const { matches, safeMethodsOnly } = compileCondition(condition);
  assertHooks('except', [hooks]);
  const skip = (ctx: AnyContext | undefined): boolean => ctx !== undefined && matches(ctx.request);
  const out: Hooks = {};
  const { onRequest, preBody, beforeHandle, afterHandle, onError, onSend, onResponse } = hooks;
  if (onRequest !== undefined)
    out.onRequest = (request) => (matches(request) ? undefined : onRequest(request));
  if (preBody !== undefined)
    out.preBody = (ctx) => (skip(ctx as unknown as AnyContext) ? undefined : preBody(ctx));
  if (beforeHandle !== undefined) out.beforeHandle = (ctx) => (skip(ctx) ? undefined : beforeHandle(ctx));
  if (afterHandle !== undefined)
    out.afterHandle = (ctx, result) => (skip(ctx) ? undefined : afterHandle(ctx, result));
  if (onError !== undefined)
    out.onError = (error, ctx, request) => (skip(ctx) ? undefined : onError(error, ctx, request));
  if (onSend !== undefined)
    out.onSend = (response, ctx, request) => (skip(ctx) ? undefined : onSend(response, ctx, request));
  if (onResponse !== undefined)
    out.onResponse = (response, ctx, request) => (skip(ctx) ? undefined : onResponse(response, ctx, request));
  const inner = hookTraitsOf(hooks) ?? {};
  return withHookTraits(
    out,
    defined({
      csrfProtection: safeMethodsOnly && inner.csrfProtection === true,
      usesSession: inner.usesSession,
      cors: inner.cors,
      secrets: inner.secrets,
      trustsOrigin: inner.trustsOrigin,
      replaysResponses: inner.replaysResponses,
      answers: inner.answers,
    }),
  );
}

// session(): cookie sessions as hooks. preBody loads the session, onSend saves it.
import {
  type AnyContext,
  type AnyHandlerResult,
  type Hooks,
  type PreBodyContext,
  parseCookieHeader,
  withHookTraits,
} from '@charter/core';
import { commitSession } from './commit.ts';
import { type ResolvedSessionOptions, resolveSessionOptions, type SessionOptions } from './options.ts';
import { parseSessionRecord, type SessionData } from './record.ts';
import {
  attachSession,
  type LoadedSession,
  type RotateSessionOptions,
  type Session,
  SessionState,
  sessionSlot,
} from './request-session.ts';
import { createSigner, type Signer } from './signing.ts';

/**
 * The stored session a request's one session cookie names, or undefined when there is none: a bad
 * signature, an unknown id, or an expired record (which is deleted). Store errors propagate (500).
 * No cookie, or the name twice (a cookie planted by a sibling subdomain cannot be told from ours),
 * never gets here.
 */
async function load(
  options: ResolvedSessionOptions,
  signer: Signer,
  raw: string,
): Promise<LoadedSession | undefined> {
  // The signature is checked before the store is asked: ids cannot be guessed or probed for timing.
  const verified = await signer.verify(raw);
  if (verified === null) return undefined;
  const found = await options.store.get(verified.value);
  if (found === undefined || found === null) return undefined;
  const record = parseSessionRecord(found);
  const now = options.now();
  // Checked here too: a custom store may not expire records, and the timeouts may have shrunk since.
  if (record.expiresAt <= now || record.createdAt + options.absoluteMs <= now) {
    await options.store.delete(verified.value);
    return undefined;
  }
  return { id: verified.value, record, keyIndex: verified.keyIndex };
}

/**
 * Cookie sessions: a signed, random id in a cookie and the data in a store. Read the session with
 * `sessionOf(ctx)`; sign users in with `rotateSession(ctx, { user })`. Register it before the hooks
 * that read the session, and add `csrf()` to state-changing routes (the App's boot guard checks).
 * @example app.use(session({ secret: process.env.SESSION_SECRET as string }));
 */
export function session(options: SessionOptions): Hooks {
  const resolved = resolveSessionOptions(options);
  const signer = createSigner(resolved.secrets);

  const hooks: Hooks = {
    preBody(ctx: PreBodyContext): Promise<void> | undefined {
      const existing = sessionSlot(ctx.state);
      if (existing !== undefined) {
        // The same session() registered twice (app and route, say) loads once.
        if (existing.owner === resolved) return undefined;
        throw new Error('Two different session() hook sets cover this route; register one per route');
      }
      // ctx.headers, not ctx.request: the body-limited request wrapper is built only when someone asks.
      const values = parseCookieHeader(ctx.headers.cookie).get(resolved.cookieName);
      const present = values !== undefined;
      const open = (loaded: LoadedSession | undefined): void => {
        attachSession(ctx.state, new SessionState(resolved, ctx.state, loaded, present, resolved.now()));
      };
      // No usable cookie (the common anonymous case): no signature to check, no store, no promise.
      const raw = values?.length === 1 ? values[0] : undefined;
      if (raw === undefined) {
        open(undefined);
        return undefined;
      }
      return load(resolved, signer, raw).then(open);
    },
    onSend(response: Response, ctx: AnyContext | undefined): Promise<Response> | undefined {
      // No ctx (unmatched route) or no session (preBody did not run, or failed): nothing to save.
      const current = ctx === undefined ? undefined : sessionSlot(ctx.state);
      if (current === undefined || current.owner !== resolved || current.committed) return undefined;
      // A new session nobody changed: nothing to store, no cookie to set.
      if (current.originalId === undefined && !current.dirty) return undefined;
      return commitSession(current, signer, response);
    },
  };
  return withHookTraits(hooks, {
    usesSession: true,
    secrets: resolved.secretValues.map((value, index) => ({
      where: resolved.secretValues.length === 1 ? 'session({ secret })' : `session({ secret[${index}] })`,
      value,
    })),
  });
}

/**
 * The session of the current request, typed with your data's shape. Throws when no `session()`
 * hooks ran for the request (a configuration mistake: a 500).
 */
export function sessionOf<D extends object = SessionData>(ctx: Pick<AnyContext, 'state'>): Session<D> {
  const current = sessionSlot(ctx.state);
  if (current === undefined) {
    throw new Error(
      'No session for this request: register session({ secret }) in the app, group or route hooks, before the hooks that read it',
    );
  }
  return current as unknown as Session<D>;
}

/**
 * Gives the request's session a new id, on sign-in or any change of privilege, so an id an
 * attacker planted or saw before cannot follow the user across it (session fixation, OWASP).
 * The old record is deleted and the data kept unless `keepData: false`; `user` signs a user in
 * (or out with null). Takes effect when the response is sent.
 *
 * Two forms: `rotateSession(ctx, options?)` rotates now, from a handler or hook; `rotateSession(options?)`
 * returns Hooks for a route (after `session()`) that rotate once its handler succeeded (status below
 * 400), e.g. on a login or role-change route whose handler does not touch the session itself.
 * @example rotateSession(ctx, { user: { sub: account.id, scopes: ['orders:read'] } });
 * @example app.post('/elevate', { hooks: [session(opts), rotateSession()], ... }, handler);
 */
export function rotateSession(ctx: Pick<AnyContext, 'state'>, options?: RotateSessionOptions): void;
export function rotateSession(options?: RotateSessionOptions): Hooks;
export function rotateSession(
  first?: Pick<AnyContext, 'state'> | RotateSessionOptions,
  options?: RotateSessionOptions,
): Hooks | undefined {
  if (first !== undefined && 'state' in first) {
    sessionOf(first).rotate(options);
    return undefined;
  }
  const hookOptions = first === undefined ? undefined : { ...first };
  return {
    afterHandle(ctx: AnyContext, result: AnyHandlerResult): void {
      if (result.status < 400) sessionOf(ctx).rotate(hookOptions);
    },
  };
}

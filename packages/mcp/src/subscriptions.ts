/**
 * Resource subscriptions of the legacy era (MCP 2025-11-25 "Resources" §Subscriptions):
 * `resources/subscribe` and `resources/unsubscribe` record the URI in the session (so any instance
 * knows it), and `notifications/resources/updated` goes to the session's GET stream when the app
 * announces a change (stream.ts). Offered only when the handler keeps sessions: without one there
 * is no stream to notify on, and the capability is not declared.
 */
import { MCP_ERROR_CODES } from './constants.ts';
import { McpError } from './errors.ts';
import type { McpCall, MethodResult } from './server.ts';
import { invalidParams } from './server.ts';

/** Most URIs one session may watch: each announcement reads every watching session. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100;

function uriOf(call: McpCall): string {
  const { uri } = call.params;
  if (typeof uri !== 'string' || uri.length === 0)
    throw invalidParams(`${call.ctx.method} needs params.uri (a string)`);
  if (uri.length > call.server.options.maxResourceUriLength) {
    throw invalidParams(`params.uri is longer than ${call.server.options.maxResourceUriLength} characters`);
  }
  return uri;
}

async function change(call: McpCall, edit: (uris: Set<string>, uri: string) => void): Promise<MethodResult> {
  const uri = uriOf(call);
  const keeper = call.server.sessions;
  const session = call.session;
  if (keeper === undefined || session === undefined)
    throw invalidParams('resource subscriptions need a session');
  // Compare-and-set (session.ts change): two instances changing one session at once both land.
  const changed = await keeper.change(session.id, (current) => {
    const uris = new Set(current.subscriptions);
    edit(uris, uri);
    if (uris.size > MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw invalidParams(`A session may watch at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources`);
    }
    if (uris.size === current.subscriptions.length && current.subscriptions.every((u) => uris.has(u)))
      return undefined;
    return { ...current, subscriptions: [...uris] };
  });
  if (changed === undefined) throw new McpError(MCP_ERROR_CODES.internalError, 'The session has ended');
  return { result: {} };
}

/**
 * `resources/subscribe`: any URI is accepted, existing or not yet (a template's resource may appear
 * later); the app decides what it announces. `resources/unsubscribe` of a URI not watched is a no-op.
 */
export const SESSION_METHODS: Readonly<Record<string, (call: McpCall) => Promise<MethodResult>>> = {
  'resources/subscribe': (call) => change(call, (uris, uri) => uris.add(uri)),
  'resources/unsubscribe': (call) => change(call, (uris, uri) => uris.delete(uri)),
};

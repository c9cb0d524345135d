/**
 * Raw-HTTP helpers of tests/scaling/mcp-instances.test.ts: JSON-RPC POSTs, GET streams and DELETE
 * against the `/mcp` endpoint of an instance (tests/scaling/support/mcp-instance.ts), the legacy
 * handshake, and the checks of a problem document.
 */
import { expect } from 'bun:test';
import type { AppProcess } from './processes.ts';

export const LEGACY = '2025-11-25';

export type Json = Record<string, any>;

let nextId = 1;
export const rpc = (method: string, params: Json = {}, id: string | number = nextId++) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** POSTs a JSON-RPC message to `/mcp` of `at`, inside session `session` when given. */
export function post(
  at: AppProcess,
  body: unknown,
  session?: string,
  init: { accept?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${at.origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: init.accept ?? 'application/json, text/event-stream',
      ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY }),
    },
    body: JSON.stringify(body),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
}

/** Opens (or, with `lastEventId`, resumes) a stream of session `session` on `at`. */
export function openStream(at: AppProcess, session: string, lastEventId?: string): Promise<Response> {
  return fetch(`${at.origin}/mcp`, {
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': LEGACY,
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
  });
}

export const end = (at: AppProcess, session: string) =>
  fetch(`${at.origin}/mcp`, {
    method: 'DELETE',
    headers: { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
  });

/** The legacy handshake on `at`: initialize, then notifications/initialized. Returns the session id. */
export async function initialize(at: AppProcess): Promise<string> {
  const res = await post(
    at,
    rpc('initialize', {
      protocolVersion: LEGACY,
      capabilities: { sampling: {}, elicitation: {}, roots: {} },
      clientInfo: { name: 'scaling-test', version: '1' },
    }),
  );
  expect(res.status).toBe(200);
  const id = res.headers.get('mcp-session-id') as string;
  expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect((await res.json()).result.capabilities.resources).toMatchObject({ subscribe: true });
  const done = await post(at, { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
  expect(done.status).toBe(202);
  return id;
}

export async function result(res: Response): Promise<Json> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as Json;
  expect(body.error).toBeUndefined();
  return body.result as Json;
}

export const toolText = (answer: Json): string => (answer.content as { text: string }[])[0]?.text as string;

export async function problem(res: Response, status: number, detail: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const text = await res.text();
  expect(String((JSON.parse(text) as Json).detail)).toContain(detail);
  // No internals: nothing of Redis, its address or an error message of the client library.
  expect(text.toLowerCase()).not.toMatch(/redis|econnrefused|127\.0\.0\.1/);
}

export async function unavailable(res: Response): Promise<void> {
  expect(res.headers.get('retry-after')).toBe('1');
  await problem(res, 503, 'The session store is unavailable');
}

export async function eventually<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not recover within ${ms} ms`);
    await Bun.sleep(200);
  }
}

export const ANSWERS: Record<string, { tool: string; result: Json; text: (at: string) => string }> = {
  'sampling/createMessage': {
    tool: 'ask_model',
    result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', stopReason: 'endTurn' },
    text: (at) => `${at}: model said hi`,
  },
  'elicitation/create': {
    tool: 'ask_user',
    result: { action: 'accept', content: { name: 'Grace' } },
    text: (at) => `${at}: hello Grace`,
  },
  'roots/list': {
    tool: 'list_roots',
    result: { roots: [{ uri: 'file:///work' }] },
    text: (at) => `${at}: file:///work`,
  },
};

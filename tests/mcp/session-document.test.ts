/**
 * The OpenAPI document of mcpRoutes with and without a session store: every answer the stateful
 * endpoint gives is listed (the GET stream, DELETE, the session header, the problem a POST with an
 * unknown session gets), and a stateless endpoint lists none of it.
 */
import { describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { App } from '@charter/core';
import { type McpHandler, mcpRoutes } from '@charter/mcp';
import { generateOpenAPI, type Operation } from '@charter/openapi';
import { call, initialize, inSession, rpc, sessionHandler, statelessHandler } from './session-support.ts';

function documentOf(handler: McpHandler) {
  const app = new App({ logger: false });
  app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));
  const doc = generateOpenAPI(app, { info: { title: 'Sessions', version: '1.0.0' } });
  return { app, doc, path: doc.paths['/mcp'] as Record<string, Operation> };
}

const header = (op: Operation | undefined, name: string) =>
  (op?.parameters ?? []).find((p) => 'in' in p && p.in === 'header' && p.name === name) as
    | { required?: boolean }
    | undefined;

describe('the OpenAPI document of a stateful tool server', () => {
  test('lists the GET stream and DELETE with their statuses, and the session header on each method', async () => {
    const { doc, path } = documentOf(sessionHandler());
    expect(Object.keys(path).sort()).toEqual(['delete', 'get', 'options', 'post']);
    expect(path.get?.responses['200']?.content).toEqual({
      'text/event-stream': { schema: { type: 'string' } },
    });
    expect(Object.keys(path.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '404', '405', '406', '409', '503']),
    );
    expect(Object.keys(path.delete?.responses ?? {})).toEqual(
      expect.arrayContaining(['204', '400', '404', '503']),
    );
    expect(header(path.get, 'mcp-session-id')?.required).toBe(true);
    expect(header(path.get, 'last-event-id')).toBeDefined();
    expect(header(path.delete, 'mcp-session-id')?.required).toBe(true);
    // Not required on POST: initialize has no session yet.
    expect(header(path.post, 'mcp-session-id')?.required).toBeUndefined();
    expect(path.post?.responses['200']?.headers?.['Mcp-Session-Id']).toBeDefined();
    expect(Object.keys(path.post?.responses['404']?.content ?? {})).toEqual([
      'application/json',
      'application/problem+json',
    ]);
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors).toBeUndefined();
  });

  test('a POST with an unknown session is the problem document the 404 lists', async () => {
    const handler = sessionHandler();
    await initialize(handler);
    const res = await call(handler, { headers: inSession('unknown-session'), body: rpc('ping') });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toStartWith('application/problem+json');
    expect(((await res.json()) as { status: number }).status).toBe(404);
  });
});

describe('the OpenAPI document of a stateless tool server', () => {
  test('has no GET stream, no DELETE and no session header; a 404 is only a JSON-RPC error', () => {
    const { path } = documentOf(statelessHandler());
    expect(Object.keys(path).sort()).toEqual(['options', 'post']);
    expect(header(path.post, 'mcp-session-id')).toBeUndefined();
    expect(path.post?.responses['200']?.headers).toBeUndefined();
    expect(Object.keys(path.post?.responses['404']?.content ?? {})).toEqual(['application/json']);
    // Both media types of the 200 are listed whatever the store.
    expect(Object.keys(path.post?.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/event-stream',
    ]);
  });
});

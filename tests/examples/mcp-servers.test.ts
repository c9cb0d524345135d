/**
 * `bun examples/mcp-server.ts` and `bun examples/mcp-conformance-server.ts`: each starts, prints its
 * endpoint, and answers an MCP `initialize` there. (tests/mcp drives them in depth with real clients.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

async function initialize(endpoint: string): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  });
}

describe('examples/mcp-server.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('mcp-server.ts');
  });
  afterAll(() => example?.stop());

  test('prints its endpoint and an inspector command to try', () => {
    expect(example.output()).toContain(`Library catalogue MCP server at ${example.url}/mcp`);
    expect(example.output()).toContain(`--cli ${example.url}/mcp --method tools/list`);
  });

  test('POST /mcp initialize answers with the server info', async () => {
    const response = await initialize(`${example.url}/mcp`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; result: { protocolVersion: string } };
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe('2025-11-25');
  });
});

describe('examples/mcp-conformance-server.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('mcp-conformance-server.ts');
  });
  afterAll(() => example?.stop());

  test('prints its endpoint and how to run the conformance suite', () => {
    expect(example.output()).toContain(`MCP conformance fixture at ${example.url}/mcp`);
    expect(example.output()).toContain('--url');
  });

  test('POST /mcp initialize answers', async () => {
    const response = await initialize(`${example.url}/mcp`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-11-25',
    );
  });
});

/**
 * One instance of an MCP tool server that keeps legacy-era sessions in Redis
 * (`redisMcpSessionStore`), run as its own process by tests/scaling/mcp-instances.test.ts:
 * `bun mcp-instance.ts` with REDIS_URL, INSTANCE (its name) and REDIS_CLIENT (`bun` or
 * `node-redis`); it serves `/mcp` on port 0 and prints `{"port":<n>}` once it listens. Its tools
 * name the instance that ran them, so a test can tell where each call went.
 */
import { serve } from '@charter/bun';
import { App } from '@charter/core';
import { createMcpHandler, mcpRoutes } from '@charter/mcp';
import { redisMcpSessionStore } from '@charter/redis';
import { client, logger, name, subscriber, timeoutMs } from './instance-env.ts';

const text = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

const handler = createMcpHandler({
  serverInfo: { name: `mcp-instance-${name}`, version: '1.0.0' },
  tools: [
    {
      name: 'whoami',
      description: 'Names the instance that ran it',
      inputSchema: { type: 'object', properties: {} },
      handler: () => `instance ${name}`,
    },
    {
      name: 'ask_model',
      description: 'Asks the client to sample (sampling/createMessage)',
      inputSchema: { type: 'object', properties: {} },
      handler: async (_args, ctx) => {
        const answer = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
          maxTokens: 10,
        });
        return `${name}: model said ${(answer.content as { text?: string }).text}`;
      },
    },
    {
      name: 'ask_user',
      description: 'Asks the client for a name (elicitation/create)',
      inputSchema: { type: 'object', properties: {} },
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return `${name}: hello ${text((answer.content as { name?: unknown } | undefined)?.name)}`;
      },
    },
    {
      name: 'list_roots',
      description: 'Lists the client roots (roots/list)',
      inputSchema: { type: 'object', properties: {} },
      handler: async (_args, ctx) => {
        const { roots } = (await ctx.listRoots()) as { roots: { uri: string }[] };
        return `${name}: ${roots.map((root) => root.uri).join(',')}`;
      },
    },
    {
      name: 'touch',
      description: 'Announces that a resource changed (notifications/resources/updated to its watchers)',
      inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
      handler: async (args) => {
        await handler.notifyResourceUpdated((args as { uri: string }).uri);
        return `${name}: announced`;
      },
    },
  ],
  resources: [{ uri: 'notes://today', name: 'today', read: () => `notes of today (${name})` }],
  sessions: {
    store: redisMcpSessionStore({ client, subscriber, timeoutMs }),
    clientRequestTimeoutMs: Number(process.env.CLIENT_REQUEST_TIMEOUT_MS ?? 20_000),
  },
  onError: (error) => logger.error('mcp handler error', { error }),
});

const app = new App({ title: `mcp instance ${name}`, version: '1.0.0', logger });
app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));

const server = await serve(app, { port: 0, hostname: '127.0.0.1' });
console.log(JSON.stringify({ port: server.port }));

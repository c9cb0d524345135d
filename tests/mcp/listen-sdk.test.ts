/**
 * `subscriptions/listen` with the official v2 TypeScript client (`@modelcontextprotocol/client`
 * 2.4.0, pinned to 2026-07-28) over real loopback HTTP (charter/bun): `client.listen()` resolves on
 * our acknowledgement with the honoured filter, a resource update reaches the client's notification
 * handler, `subscription.close()` frees the stream on the server, and `closeMcpListenStreams` is
 * seen by the client as a graceful end.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { App } from 'charter';
import { type BunServer, serve } from 'charter/bun';
import {
  closeMcpListenStreams,
  createMcpHandler,
  type McpHandler,
  mcpListenStreamCount,
  mcpRoutes,
} from 'charter/mcp';
import { eventually } from './listen-support.ts';
import { fixtureOptions, RESOURCE_URIS } from './support.ts';

const [README, CHANGELOG] = RESOURCE_URIS;
const TEST_TIMEOUT_MS = 15_000;

let server: BunServer;
let handler: McpHandler;
let url: URL;

beforeAll(async () => {
  handler = createMcpHandler(fixtureOptions([], []));
  const app = new App({ logger: false });
  app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));
  server = await serve(app, { port: 0, signals: false });
  url = new URL(`${server.url}/mcp`);
});

afterAll(async () => {
  // Open listen streams first (they never end on their own), then the server's graceful stop.
  if (handler !== undefined) closeMcpListenStreams(handler);
  await server?.close(1_000);
});

async function connect(): Promise<Client> {
  const client = new Client(
    { name: 'charter-listen-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

describe('subscriptions/listen with @modelcontextprotocol/client 2.4.0', () => {
  test(
    'listen() resolves with the honoured filter, an update arrives, close() frees the stream on the server',
    async () => {
      const client = await connect();
      const uris: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', (notification) => {
        uris.push(notification.params.uri);
      });
      const subscription = await client.listen({ resourceSubscriptions: [README], toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [README] });
      expect(mcpListenStreamCount(handler)).toBe(1);
      await handler.notifyResourceUpdated(CHANGELOG);
      await handler.notifyResourceUpdated(README);
      await eventually(() => uris.length > 0);
      expect(uris).toEqual([README]);
      await subscription.close();
      expect(await subscription.closed).toBe('local');
      await eventually(() => mcpListenStreamCount(handler) === 0);
      await client.close();
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'closeMcpListenStreams ends the subscription gracefully, as the client sees it',
    async () => {
      const client = await connect();
      const subscription = await client.listen({ resourceSubscriptions: [README] });
      closeMcpListenStreams(handler);
      expect(await subscription.closed).toBe('graceful');
      expect(mcpListenStreamCount(handler)).toBe(0);
      await client.close();
    },
    TEST_TIMEOUT_MS,
  );
});

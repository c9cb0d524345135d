/** Both real clients, wrapped by the adapters under test, against one server. */
import { afterAll, beforeAll } from 'bun:test';
import { RedisClient } from 'bun';
import { createClient } from 'redis';
import { bunRedisClient, nodeRedisClient, type RedisLikeClient } from '../../../packages/redis/src/index.ts';
import { type RedisServer, startRedisServer } from './redis-server.ts';

export interface TestClient {
  readonly name: 'bun' | 'node-redis';
  readonly client: RedisLikeClient;
  close(): void;
}

export type ClientKind = TestClient['name'];

export const CLIENT_KINDS: readonly ClientKind[] = ['bun', 'node-redis'];

/** Connects a client of the given kind to `url`. */
export async function connect(kind: ClientKind, url: string): Promise<TestClient> {
  if (kind === 'bun') {
    const raw = new RedisClient(url);
    await raw.connect();
    return { name: kind, client: bunRedisClient(raw), close: () => raw.close() };
  }
  // No reconnect loop: a killed server leaves the client failing fast or queueing until the store's deadline.
  const raw = createClient({ url, socket: { reconnectStrategy: false } });
  const client = nodeRedisClient(raw);
  await raw.connect();
  return {
    name: kind,
    client,
    close: () => {
      if (raw.isOpen) raw.destroy();
    },
  };
}

/** What `redisForThisFile` gives a test file. */
export interface RedisFixture {
  /** The file's server (started in `beforeAll`). */
  readonly server: RedisServer;
  /** A client of `url` (default: the file's server), closed after the file's tests. */
  client(kind: ClientKind, url?: string): Promise<RedisLikeClient>;
}

/**
 * A throwaway redis-server for the calling test file, started before its tests and stopped after
 * them, with every client the file opened closed first.
 */
export function redisForThisFile(): RedisFixture {
  let server: RedisServer | undefined;
  const open: TestClient[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of open.splice(0)) c.close();
    await server?.stop();
  });
  const fixture: RedisFixture = {
    get server(): RedisServer {
      if (server === undefined) throw new Error('The Redis server starts in beforeAll');
      return server;
    },
    async client(kind, url) {
      const c = await connect(kind, url ?? fixture.server.url);
      open.push(c);
      return c.client;
    },
  };
  return fixture;
}

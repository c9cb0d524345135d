/** Both real clients, wrapped by the adapters under test, against one server. */
import { RedisClient } from 'bun';
import { createClient } from 'redis';
import { bunRedisClient, nodeRedisClient, type RedisLikeClient } from '../../../packages/redis/src/index.ts';

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

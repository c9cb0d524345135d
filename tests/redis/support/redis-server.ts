/**
 * Starts a throwaway redis-server for one test file: a free port, no persistence (`--save ''
 * --appendonly no`), a temporary directory removed on stop. The restartable server of the outage
 * tests, used without its restarts.
 */
import { startRestartableRedis } from './restartable-redis.ts';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (as a crash would) and removes its directory. */
  stop(): Promise<void>;
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const server = await startRestartableRedis();
  let stopped: Promise<void> | undefined;
  return {
    port: server.port,
    url: server.url,
    stop: () => (stopped ??= server.stop()),
  };
}

/**
 * Starts a throwaway redis-server for one test file: a free port, no persistence (`--save ''
 * --appendonly no`), a temporary directory removed on stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (as a crash would) and removes its directory. */
  stop(): Promise<void>;
}

// .ci/run installs Debian's redis-server when none is on PATH; REDIS_SERVER_PATH points elsewhere.
const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? Bun.which('redis-server') ?? '/usr/bin/redis-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: { data() {}, error() {} },
    });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'charter-redis-'));
  const port = await freePort();
  const proc = Bun.spawn(
    [
      REDIS_SERVER,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  );
  const started = Date.now();
  while (!(await answersPing(port))) {
    if (proc.exitCode !== null || Date.now() - started > 10_000) {
      proc.kill();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await Bun.sleep(20);
  }
  let stopped = false;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      proc.kill('SIGKILL');
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

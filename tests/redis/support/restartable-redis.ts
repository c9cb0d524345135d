/**
 * A redis-server that a test can kill and start again on the same port, as an outage would: the
 * clients keep their address and must find the server again on their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// .ci/run installs Debian's redis-server when none is on PATH; REDIS_SERVER_PATH points elsewhere.
const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? Bun.which('redis-server') ?? '/usr/bin/redis-server';

export interface RestartableRedis {
  readonly port: number;
  readonly url: string;
  /** Kills the server with SIGKILL (a crash: nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server without closing its connections (SIGSTOP): commands wait for an answer that does not come. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
  /** Kills it for good and removes its directory. */
  stop(): Promise<void>;
}

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

async function accepts(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {}, error() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/** Starts a redis-server on a free port. */
export async function startRestartableRedis(): Promise<RestartableRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'charter-redis-'));
  const port = await freePort();
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  const start = async (): Promise<void> => {
    const started = Date.now();
    // The port was just released by the killed server: retry until the new one binds it.
    for (;;) {
      const spawned = Bun.spawn(
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
      proc = spawned;
      while (!(await accepts(port))) {
        if (spawned.exitCode !== null) break;
        if (Date.now() - started > 15_000) {
          spawned.kill('SIGKILL');
          throw new Error(`redis-server did not start on port ${port}`);
        }
        await Bun.sleep(20);
      }
      if (spawned.exitCode === null) return;
      // It exited at once (the port not yet free): try again, within the same deadline.
      if (Date.now() - started > 15_000) throw new Error(`redis-server did not start on port ${port}`);
      await Bun.sleep(100);
    }
  };
  const kill = async (): Promise<void> => {
    const running = proc;
    proc = undefined;
    if (running === undefined) return;
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await running.exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    pause: () => proc?.kill('SIGSTOP'),
    resume: () => proc?.kill('SIGCONT'),
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

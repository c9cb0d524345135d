/**
 * App processes for the multi-instance tests: each is a real `bun` process listening on port 0,
 * found by the port it reports on stdout, and always killed after the test file.
 */
import { afterAll } from 'bun:test';
import { join } from 'node:path';

export const ROOT = join(import.meta.dir, '..', '..', '..');

export interface AppProcess {
  readonly name: string;
  readonly port: number;
  readonly origin: string;
  /** What the process wrote to stderr so far (its error log), for failure messages. */
  stderr(): string;
  stop(): Promise<void>;
}

const running: AppProcess[] = [];

/** Kills every process the calling file started, after its tests. */
export function stopProcessesAfterAll(): void {
  afterAll(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });
}

/**
 * Spawns `bun <script>` with `env` and resolves with the port found by `portOf` in a stdout line
 * (within `ms`); the process is killed if it does not report one.
 */
export async function spawnApp(
  name: string,
  script: string,
  env: Record<string, string>,
  portOf: (line: string) => number | undefined,
  ms = 30_000,
): Promise<AppProcess> {
  const child = Bun.spawn([process.execPath, script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let errors = '';
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr as ReadableStream<Uint8Array>) errors += decoder.decode(chunk);
  })();
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill('SIGKILL');
    await child.exited;
  };
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let port: number | undefined;
  const deadline = Date.now() + ms;
  try {
    while (port === undefined) {
      const left = deadline - Date.now();
      const chunk = await Promise.race([reader.read(), Bun.sleep(Math.max(left, 0)).then(() => undefined)]);
      if (chunk === undefined || chunk.done) break;
      buffered += decoder.decode(chunk.value, { stream: true });
      for (const line of buffered.split('\n')) port ??= portOf(line);
    }
  } finally {
    reader.releaseLock();
  }
  // Keep draining stdout so the process never blocks on a full pipe.
  void (child.stdout as ReadableStream<Uint8Array>).pipeTo(new WritableStream()).catch(() => {});
  if (port === undefined) {
    await stop();
    throw new Error(
      `${name} did not report a port; stdout: ${buffered.slice(0, 2000)} stderr: ${errors.slice(0, 2000)}`,
    );
  }
  const app: AppProcess = { name, port, origin: `http://127.0.0.1:${port}`, stderr: () => errors, stop };
  running.push(app);
  return app;
}

/** The `{"port":n}` line of tests/scaling/support/instance.ts. */
export function reportedPort(line: string): number | undefined {
  if (!line.startsWith('{"port":')) return undefined;
  return (JSON.parse(line) as { port: number }).port;
}

/** The port in the site's `Charter documentation site listening` log line (its `url` field). */
export function sitePort(line: string): number | undefined {
  if (!line.includes('Charter documentation site listening')) return undefined;
  const url = (JSON.parse(line) as { url?: string }).url;
  return url === undefined ? undefined : Number(new URL(url).port);
}

/**
 * Spawns the two instances of `script` the multi-instance tests use, both with `env` (the shared
 * Redis among it): A on Bun's built-in Redis client, B on node-redis.
 */
export function spawnInstancePair(
  script: string,
  env: Record<string, string>,
): Promise<[AppProcess, AppProcess]> {
  return Promise.all([
    spawnApp('A', script, { ...env, INSTANCE: 'A', REDIS_CLIENT: 'bun' }, reportedPort),
    spawnApp('B', script, { ...env, INSTANCE: 'B', REDIS_CLIENT: 'node-redis' }, reportedPort),
  ]);
}

/**
 * Collects latencies by label and, with SCALING_FIGURES=1, prints them after the file's tests as
 * `<title>: {...}` (the guide quotes them). Returns the function that records one.
 */
export function figuresPrintedAfterAll(title: string): (label: string, ms: number) => void {
  const figures: Record<string, number[]> = {};
  afterAll(() => {
    if (process.env.SCALING_FIGURES === '1') console.log(`${title}: ${JSON.stringify(figures)}`);
  });
  return (label, ms) => void (figures[label] ??= []).push(Math.round(ms));
}

/** Times `work`, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

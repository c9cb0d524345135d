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

/** Times `work`, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

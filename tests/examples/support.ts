/**
 * Runs an example exactly as its header says a user would (`bun examples/<name>.ts`), on a free port
 * (PORT=0), and hands back the URL it prints. Every example prints its address and what to try; one
 * that printed nothing, or exited, fails here with what it wrote.
 */
import { join } from 'node:path';

export const EXAMPLES_DIR = join(import.meta.dir, '..', '..', 'examples');

/** A running example. */
export interface RunningExample {
  /** The origin it printed, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Everything it wrote to stdout so far. */
  output(): string;
  /** Kills it and waits for it to exit. */
  stop(): Promise<void>;
}

const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)/;

/** Starts `examples/<file>` on port 0 and resolves once it prints its URL on a line of its own (30 s at most). */
export async function startExample(file: string, env: Record<string, string> = {}): Promise<RunningExample> {
  const proc = Bun.spawn([process.execPath, join(EXAMPLES_DIR, file)], {
    cwd: join(EXAMPLES_DIR, '..'),
    env: { ...process.env, NODE_ENV: 'development', PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>, into: (text: string) => void): Promise<void> => {
    for await (const chunk of stream) into(decoder.decode(chunk, { stream: true }));
  };
  void pump(proc.stdout, (text) => {
    stdout += text;
  });
  void pump(proc.stderr, (text) => {
    stderr += text;
  });
  const stop = async (): Promise<void> => {
    proc.kill();
    await proc.exited;
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // The example's own announcement, not the framework's JSON "Listening" record, which carries the
    // same URL a moment earlier: returning on that one raced the tests that read what the example printed.
    const match = stdout
      .split('\n')
      .filter((line) => !line.startsWith('{'))
      .map((line) => URL_PATTERN.exec(line))
      .find((found) => found !== null && Number(found[1]) > 0);
    if (match) {
      return { url: match[0], output: () => stdout, stop };
    }
    if (proc.exitCode !== null) break;
    await Bun.sleep(25);
  }
  await stop();
  throw new Error(
    `examples/${file} printed no http://127.0.0.1:<port> URL (exit code ${proc.exitCode}).\n` +
      `stdout:\n${stdout}\nstderr:\n${stderr}`,
  );
}

/**
 * A port free right now, for the examples that must know their own origin before they listen (Better
 * Auth's `baseURL`): the OS picks it for a throwaway listener, closed at once.
 */
export function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) });
  const { port } = server;
  server.stop(true);
  if (port === undefined) throw new Error('the throwaway listener has no port');
  return port;
}

/** Which JavaScript runtime runs `charter`, and the command that starts an entry in its watch mode. */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './args.ts';

/** The runtimes `charter` knows. */
export const RUNTIMES = ['node', 'bun', 'deno'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/**
 * The runtime running this process: `bun` when `Bun` is defined, `deno` when `Deno` is, else `node`.
 * Bun and Deno also define `process.versions.node` (for compatibility), so they are tested first.
 */
export function detectRuntime(global: object = globalThis): RuntimeName {
  const g = global as { Bun?: unknown; Deno?: unknown };
  if (g.Bun !== undefined) return 'bun';
  if (g.Deno !== undefined) return 'deno';
  return 'node';
}

/** `--runtime <name>` when given (checked), else the detected runtime. */
export function resolveRuntime(option: unknown, global: object = globalThis): RuntimeName {
  if (option === undefined) return detectRuntime(global);
  if (typeof option === 'string' && (RUNTIMES as readonly string[]).includes(option))
    return option as RuntimeName;
  throw new UsageError(`--runtime must be one of ${RUNTIMES.join(', ')}; got ${JSON.stringify(option)}`);
}

/** Options of `buildDevCommand`. */
export interface DevCommandOptions {
  runtime: RuntimeName;
  /** The entry file, as the child process should see it (relative to its working directory). */
  entry: string;
  /** The runtime's executable; default its name, looked up on PATH. */
  executable?: string;
  /** Arguments passed on to the entry (`charter dev app.ts -- --port 4000`). */
  args?: readonly string[];
}

/**
 * The command line that runs `entry` and restarts it when a file it imports changes:
 * `bun --hot <entry>` (Bun reloads the modules in place, keeping the process and its port),
 * `node --watch <entry>` (restarts the process; Node 24 strips TypeScript types by default),
 * `deno run --watch --allow-net --allow-env --allow-read <entry>` (a server needs the network, its
 * environment and its files; nothing more is granted).
 */
export function buildDevCommand(options: DevCommandOptions): string[] {
  const { runtime, entry } = options;
  const executable = options.executable ?? runtime;
  const args = [...(options.args ?? [])];
  switch (runtime) {
    case 'bun':
      return [executable, '--hot', entry, ...args];
    case 'node':
      return [executable, '--watch', entry, ...args];
    case 'deno':
      return [executable, 'run', '--watch', '--allow-net', '--allow-env', '--allow-read', entry, ...args];
    default:
      throw new UsageError(`unknown runtime ${JSON.stringify(runtime)}; expected ${RUNTIMES.join(', ')}`);
  }
}

/**
 * The binary that starts the running runtime again: `execPath` (`process.execPath`), except under
 * `bunx --bun`, where it is Bun's `bunx` binary, which acts as bunx because of its name: its `bun`
 * sibling then (or `bun` from PATH when there is none).
 */
export function runtimeExecutable(execPath: string, exists: (path: string) => boolean = existsSync): string {
  const name = basename(execPath);
  const bunx = /^bunx(\.exe)?$/i.exec(name);
  if (bunx === null) return execPath;
  const sibling = join(dirname(execPath), `bun${bunx[1] ?? ''}`);
  return exists(sibling) ? sibling : 'bun';
}

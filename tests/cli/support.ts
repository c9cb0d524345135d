/**
 * Runs the built `charter` bin (packages/charter/dist/cli.js, made by `bun run build`) as a user would:
 * a child process in a project folder, under Bun or under real Node 24. The fixture projects import
 * `charter` by name: `fixtures/node_modules/charter` is linked to packages/charter here.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24 } from '../adapters/fixtures/node24.ts';
import { denoBinary } from '../support/deno-binary.ts';
import { linkCharterInto } from '../support/link-charter.ts';

export const ROOT = join(import.meta.dir, '../..');
export const CHARTER_DIR = join(ROOT, 'packages/charter');
export const CLI = join(CHARTER_DIR, 'dist/cli.js');
export const FIXTURES = join(import.meta.dir, 'fixtures');
export const fixture = (name: string): string => join(FIXTURES, name);

/** Checks the build is there and links `charter` into the fixtures' node_modules (idempotent). */
export function prepareCli(): void {
  if (!existsSync(CLI)) {
    throw new Error('packages/charter/dist/cli.js is missing: run `bun run build` before the CLI tests');
  }
  linkCharterInto(FIXTURES);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type Runtime = 'bun' | 'node' | 'deno';

/** The executable of `runtime`: this Bun, the Node 24 of NODE24_PATH, or the Deno of node_modules. */
export function runtimePath(runtime: Runtime): string {
  // Deno 2, from the dev dependency `deno` (its binary, not the Node wrapper script in .bin).
  if (runtime === 'deno') return denoBinary();
  return runtime === 'bun' ? process.execPath : node24().path;
}

/** The arguments that run the bin under `runtime` (Deno needs `run` and its permissions). */
export const binArgs = (runtime: Runtime): string[] => (runtime === 'deno' ? ['run', '-A', CLI] : [CLI]);

/** An environment without the variables that would change the CLI's output or the app's mode. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !['NODE_ENV', 'NO_COLOR', 'FORCE_COLOR', 'NODE_OPTIONS'].includes(key))
      env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs `charter <args>` in `cwd` and waits for it to exit (60 s at most: a cold, loaded machine). */
export function runCharter(
  args: readonly string[],
  options: { cwd: string; runtime?: Runtime; env?: Record<string, string> },
): Promise<CliResult> {
  const runtime = options.runtime ?? 'bun';
  return new Promise((resolve, reject) => {
    const child = spawn(runtimePath(runtime), [...binArgs(runtime), ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`charter ${args.join(' ')} did not exit within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix = 'charter-cli-'): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Long enough for a cold start of a child runtime on a loaded 2-core machine. */
export const CLI_TIMEOUT_MS = 60_000;

/**
 * What the packaging tests share: the tools they run (tsc, Node 24, npm), a command runner, the links
 * that stand in for registry installs, and a server started until it prints the URL it listens on.
 */
import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../../scripts/pack.ts';

export const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
export const NODE24 = process.env.NODE24_PATH ?? '/opt/charter-node24/node_modules/node/bin/node';
export const NPM_CLI = '/usr/lib/node_modules/npm/bin/npm-cli.js';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  out: string;
}

export async function run(cmd: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr, out: `${stdout}${stderr}` };
}

/** Links a package of this repository's node_modules into `project`'s (what an install would have put there). */
export function linkFromRepo(project: string, name: string): void {
  const target = join(project, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  rmSync(target, { recursive: true, force: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules', name)), target, 'dir');
}

/** Starts a server, waits for the line with its URL (30 s at most); returns the URL and a stop function. */
export async function startServer(
  cmd: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stop = async (): Promise<void> => {
    proc.kill();
    await proc.exited;
  };
  let output = '';
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) {
      reader.releaseLock();
      return { url: match[1] as string, stop };
    }
    const { value, done } = await reader.read();
    if (done) break;
    output += decoder.decode(value, { stream: true });
  }
  await stop();
  throw new Error(`${cmd.join(' ')} printed no URL:\n${output}\n${await new Response(proc.stderr).text()}`);
}

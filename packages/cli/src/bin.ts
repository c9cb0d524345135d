/**
 * The `charter` bin: runs the command line when this module is the process's main module, and does
 * nothing when it is imported (`import { parseArgs } from 'charter/cli'`). Built into
 * `packages/charter/dist/cli.js`, which starts with `#!/usr/bin/env node`.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCli } from './run.ts';

/** True when `moduleUrl` is the file the runtime was asked to run (through any symbolic link, as node_modules/.bin has). */
export function isMainModule(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (argv1 === undefined || !moduleUrl.startsWith('file:')) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs `charter` with the process's arguments, then exits with its code once the output is written. */
export async function main(): Promise<never> {
  // `charter routes | head -1`: the reader went away; stop quietly instead of crashing on EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  }
  const code = await runCli(process.argv.slice(2));
  // The entry may have started timers or servers: exit explicitly, after stdout and stderr drain.
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))),
  );
  process.exit(code);
}

if (isMainModule(import.meta.url)) void main();

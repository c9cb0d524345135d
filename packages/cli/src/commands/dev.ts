/**
 * `charter dev [entry] [--runtime node|bun|deno] [--dry-run] [-- args]`: runs the entry in the runtime's
 * watch mode (see `buildDevCommand`), passing the exit code through. The entry is the file that starts
 * the server (it calls `serve(app)`).
 */
import { relative } from 'node:path';
import { type Command, EXIT } from '../context.ts';
import { DEFAULT_DEV_ENTRIES, findEntry } from '../entry.ts';
import { buildDevCommand, detectRuntime, RUNTIMES, resolveRuntime, runtimeExecutable } from '../runtime.ts';
import { HELP_FLAG } from './shared.ts';

export const devCommand: Command = {
  name: 'dev',
  usage: 'dev [entry] [--runtime node|bun|deno] [--dry-run] [-- args...]',
  summary: 'run the server entry in watch mode (bun --hot, node --watch, deno run --watch)',
  details: [
    `[entry] is the file that starts your server, calling serve(app) (default: ${DEFAULT_DEV_ENTRIES.join(', then ')}). It must be a file inside the current directory.`,
    'The runtime is the one running charter unless --runtime says otherwise; arguments after -- go to the entry.',
    'Under Node 24 a .ts entry runs with type stripping (on by default): TypeScript-only syntax such as enums needs NODE_OPTIONS=--experimental-transform-types.',
  ],
  flags: {
    runtime: { type: 'string', choices: RUNTIMES, valueName: 'name', description: 'node, bun or deno' },
    'dry-run': { type: 'boolean', description: 'print the command instead of running it' },
    help: HELP_FLAG,
  },
  maxPositionals: 1,
  passesRest: true,
  async run(args, context) {
    const entry = findEntry(args.positionals[0], context.cwd, DEFAULT_DEV_ENTRIES);
    const runtime = resolveRuntime(args.flags.runtime, context.global);
    const sameRuntime = runtime === detectRuntime(context.global);
    const command = buildDevCommand({
      runtime,
      entry: relative(context.cwd, entry),
      // The same runtime: the very binary running charter (what `node` on PATH is may differ).
      ...(sameRuntime ? { executable: runtimeExecutable(context.execPath) } : {}),
      args: args.rest,
    });
    if (args.flags['dry-run'] === true) {
      context.stdout(
        `${command.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ')}\n`,
      );
      return EXIT.ok;
    }
    const [executable, ...argv] = command as [string, ...string[]];
    const child = context.spawn(executable, argv, { cwd: context.cwd, stdio: 'inherit', env: context.env });
    // Ctrl-C reaches the whole process group; SIGTERM sent to charter alone is passed on.
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onTerm = forward('SIGTERM');
    const onInt = forward('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    try {
      return await new Promise<number>((resolve) => {
        child.once('error', (error) => {
          context.stderr(`charter dev: cannot start ${executable}: ${error.message}\n`);
          resolve(EXIT.findings);
        });
        child.once('exit', (code, signal) =>
          resolve(code ?? (signal === null ? EXIT.findings : 128 + signalNumber(signal))),
        );
      });
    } finally {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
    }
  },
};

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : signal === 'SIGKILL' ? 9 : 1;
}

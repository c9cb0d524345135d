/** `charter <command> ...`: dispatch, help, and the exit codes (0 ok, 1 findings, 2 usage). */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { closest, type FlagSpec, parseArgs, shown, UsageError } from './args.ts';
import { aiCommand } from './commands/ai.ts';
import { checkCommand } from './commands/check.ts';
import { devCommand } from './commands/dev.ts';
import { diffCommand } from './commands/diff.ts';
import { doctorCommand } from './commands/doctor.ts';
import { openapiCommand } from './commands/openapi.ts';
import { routesCommand } from './commands/routes.ts';
import { type CliContext, type Command, EXIT } from './context.ts';
import { EntryLoadError } from './load.ts';

/** Every command, in the order `charter --help` lists them. */
export const COMMANDS: readonly Command[] = [
  routesCommand,
  openapiCommand,
  checkCommand,
  doctorCommand,
  devCommand,
  diffCommand,
  aiCommand,
];

/** The version of the installed package (its package.json, next to dist/), else `unknown`. */
export function cliVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function flagLine(name: string, flag: FlagSpec): string {
  const short = flag.short === undefined ? '' : `-${flag.short}, `;
  const value = flag.type === 'string' ? ` <${flag.valueName ?? 'value'}>` : '';
  return `  ${`${short}--${name}${value}`.padEnd(28)} ${flag.description ?? ''}`.trimEnd();
}

/** `charter --help`. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: charter <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "charter <command> --help shows a command's options.",
    'Exit codes: 0 ok, 1 findings (contract or security issues, breaking changes) or the app failed to load, 2 usage error.',
    '',
  ].join('\n');
}

/** `charter <command> --help`. */
export function commandHelp(command: Command): string {
  return [
    `Usage: charter ${command.usage}`,
    '',
    command.summary,
    '',
    ...command.details,
    '',
    'Options:',
    ...Object.entries(command.flags).map(([name, flag]) => flagLine(name, flag)),
    '',
  ].join('\n');
}

/** The context of the running process (its directory, environment, output streams). */
export function processContext(): CliContext {
  return {
    cwd: process.cwd(),
    env: process.env,
    global: globalThis,
    execPath: process.execPath,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    spawn: (command, args, options) => spawn(command, args, options),
  };
}

/**
 * Runs `charter` with `argv` (the arguments after `charter`) and resolves its exit code. Never throws:
 * a usage error prints its message and the usage (2), an app that fails to load prints why (1).
 */
export async function runCli(
  argv: readonly string[],
  context: CliContext = processContext(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic =
      name === 'help' && rest[0] !== undefined ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    if (name === 'help' && rest[0] !== undefined && topic === undefined) {
      context.stderr(`charter: unknown command ${shown(rest[0])}\n\n${mainHelp()}`);
      return EXIT.usage;
    }
    (name === undefined ? context.stderr : context.stdout)(topic ? commandHelp(topic) : mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    context.stdout(`${cliVersion()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    const suggestion = closest(
      name,
      COMMANDS.map((c) => c.name),
    );
    context.stderr(
      `charter: unknown command ${shown(name)}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}\n\n${mainHelp()}`,
    );
    return EXIT.usage;
  }
  try {
    const parsed = parseArgs(rest, command.flags);
    const args =
      command.passesRest === true
        ? parsed
        : { ...parsed, positionals: [...parsed.positionals, ...parsed.rest], rest: [] };
    if (args.flags.help === true) {
      context.stdout(commandHelp(command));
      return EXIT.ok;
    }
    if (args.positionals.length > command.maxPositionals) {
      throw new UsageError(
        `too many arguments: ${args.positionals.slice(command.maxPositionals).map(shown).join(' ')}`,
      );
    }
    return await command.run(args, context);
  } catch (error) {
    if (error instanceof UsageError) {
      context.stderr(
        `charter ${command.name}: ${error.message}\nUsage: charter ${command.usage} (charter ${command.name} --help)\n`,
      );
      return EXIT.usage;
    }
    if (error instanceof EntryLoadError) {
      context.stderr(`charter ${command.name}: ${error.message}\n`);
      return EXIT.findings;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    context.stderr(`charter ${command.name}: ${message}\n`);
    return EXIT.findings;
  }
}

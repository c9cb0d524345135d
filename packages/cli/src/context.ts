/** What a command runs with: where it runs, where its output goes, and the environment it reads. */
import type { ChildProcess, SpawnOptions } from 'node:child_process';

export interface CliContext {
  /** The project directory: entries must be inside it. */
  readonly cwd: string;
  /** Environment variables (the process's by default); `doctor` sets `NODE_ENV=production` in it. */
  readonly env: Record<string, string | undefined>;
  /** The global object runtime detection reads (`Bun`, `Deno`). */
  readonly global: object;
  /** The executable of the running runtime (`process.execPath`): `dev` reuses it for the same runtime. */
  readonly execPath: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Starts a child process (node:child_process `spawn`), for `dev`. */
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
}

/** The exit codes of `charter` (documented at https://charter.dev/docs/cli). */
export const EXIT = {
  /** Done, nothing found. */
  ok: 0,
  /** Findings (contract issues, insecure configuration, breaking changes) or the app failed to load. */
  findings: 1,
  /** A command line mistake: unknown command or option, missing argument, refused or missing entry. */
  usage: 2,
} as const;

/** One `charter` command. */
export interface Command {
  readonly name: string;
  /** `routes [entry] [--json]` */
  readonly usage: string;
  /** One line for `charter --help`. */
  readonly summary: string;
  /** More lines for `charter <command> --help`. */
  readonly details: readonly string[];
  readonly flags: Readonly<Record<string, import('./args.ts').FlagSpec>>;
  /** Most positional arguments accepted. */
  readonly maxPositionals: number;
  /** Whether arguments after `--` are the command's own (`dev` passes them on); else they are positionals. */
  readonly passesRest?: boolean;
  run(args: import('./args.ts').ParsedArgs, context: CliContext): Promise<number>;
}

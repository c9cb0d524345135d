/**
 * What the terminal can show: colour (NO_COLOR, FORCE_COLOR, a TTY) and UTF-8 (the locale). Read
 * through `globalThis.process`, so the banner loads where there is no `process` (it then prints plain
 * ASCII without colour).
 */

/** The environment the decisions read; by default the running process's. */
export interface TerminalEnvironment {
  /** Environment variables (`process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal (`process.stdout.isTTY`). */
  isTTY?: boolean;
  /** `process.platform`. */
  platform?: string;
}

interface ProcessLike {
  env?: Record<string, string | undefined>;
  platform?: string;
  stdout?: { isTTY?: boolean; write?: (text: string) => unknown };
}

/** The running process, when there is one. */
export function currentProcess(): ProcessLike | undefined {
  const candidate = (globalThis as { process?: unknown }).process;
  return typeof candidate === 'object' && candidate !== null ? (candidate as ProcessLike) : undefined;
}

/** The running process's environment, standard output and platform. */
export function currentTerminal(): TerminalEnvironment {
  const proc = currentProcess();
  return { env: proc?.env ?? {}, isTTY: proc?.stdout?.isTTY === true, platform: proc?.platform ?? '' };
}

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * Whether to colour output, in this order: `FORCE_COLOR` set and not empty (`0` and `false` turn colour
 * off, any other value on, as Node.js reads it), then `NO_COLOR` set and not empty turns it off
 * (https://no-color.org), then colour only on a terminal that is not `TERM=dumb`.
 */
export function shouldUseColor(terminal: TerminalEnvironment = currentTerminal()): boolean {
  const env = terminal.env ?? {};
  const force = env.FORCE_COLOR;
  if (nonEmpty(force)) return force !== '0' && force.toLowerCase() !== 'false';
  if (nonEmpty(env.NO_COLOR)) return false;
  return terminal.isTTY === true && env.TERM !== 'dumb';
}

/**
 * Whether the terminal shows UTF-8: the first locale variable that is set (`LC_ALL`, `LC_CTYPE`,
 * `LANG`, the POSIX precedence) names UTF-8. Without any, POSIX systems use the "C" locale (ASCII);
 * Windows terminals show Unicode.
 */
export function supportsUnicode(terminal: TerminalEnvironment = currentTerminal()): boolean {
  const env = terminal.env ?? {};
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find(nonEmpty);
  if (locale === undefined) return terminal.platform === 'win32';
  return /utf-?8/i.test(locale);
}

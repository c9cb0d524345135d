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
  return { env: proc?.env ?? {}, isTTY: stdoutIsTerminal(proc), platform: proc?.platform ?? '' };
}

/**
 * Whether descriptor 1 is a terminal. On Bun, the first read of `process.stdout` builds the whole
 * stream (node:stream, node:tty, node:net): about 40 M instructions, more than the rest of a small
 * app's start (`bench/startup.ts`), paid by every `serve()` only to decide whether to print the
 * banner. Bun answers the same isatty(1) question without it through `process.binding('tty_wrap')`;
 * elsewhere (Node, where `process.binding` is deprecated and `process.stdout` is cheap), or if that
 * answer is missing, `process.stdout.isTTY`.
 */
function stdoutIsTerminal(proc: ProcessLike | undefined): boolean {
  if (typeof (globalThis as { Bun?: unknown }).Bun === 'object') {
    try {
      const binding = (proc as { binding?: (name: string) => { isTTY?: unknown } } | undefined)?.binding;
      const isTTY = typeof binding === 'function' ? binding('tty_wrap')?.isTTY : undefined;
      const answer = typeof isTTY === 'function' ? (isTTY as (fd: number) => unknown)(1) : undefined;
      if (typeof answer === 'boolean') return answer;
    } catch {
      // No such binding in this Bun: ask the stream below.
    }
  }
  return proc?.stdout?.isTTY === true;
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

/**
 * The command line parser of `charter`: `--flag`, `--flag=value`, `--flag value`, `-h`, and `--`
 * (everything after it is positional). No dependencies; an unknown flag is a UsageError that names it
 * and suggests the closest known one.
 */

/** A command line mistake: `charter` prints the message and its usage, and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** How one flag is read: a boolean (`--json`) or a string with a value (`--out file`, `--out=file`). */
export interface FlagSpec {
  readonly type: 'boolean' | 'string';
  /** One-letter alias, e.g. `h` for `-h`. */
  readonly short?: string;
  /** The values a string flag accepts. */
  readonly choices?: readonly string[];
  /** One line for `--help`. */
  readonly description?: string;
  /** Placeholder shown in `--help` for a string flag's value, e.g. `file`. */
  readonly valueName?: string;
}

export interface ParsedArgs {
  /** Booleans for boolean flags, strings for string flags; absent when not given. */
  readonly flags: Readonly<Record<string, string | boolean>>;
  readonly positionals: readonly string[];
  /** What follows `--`, untouched (`charter dev app.ts -- --port 4000` passes `--port 4000` on). */
  readonly rest: readonly string[];
}

/** Levenshtein distance, capped: small inputs only (flag and command names). */
function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The known name closest to `input` (within a third of its length, at least 1, at most 3 edits),
 * else undefined; a known name that starts with `input` counts as close.
 */
export function closest(input: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const limit = Math.min(3, Math.max(1, Math.floor(input.length / 3)));
  for (const name of known) {
    const d = name.startsWith(input) && input.length >= 2 ? 1 : distance(input, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** A printable form of what the user typed, for error messages (controls removed, length capped). */
export function shown(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return JSON.stringify(clean.length > 80 ? `${clean.slice(0, 79)}...` : clean);
}

/**
 * Parses `argv` (the arguments after the command name) against `spec`. Throws a UsageError for an
 * unknown flag (with a did-you-mean), a string flag without a value, a value given to a boolean flag,
 * a value outside `choices`, or a flag given twice.
 */
export function parseArgs(argv: readonly string[], spec: Readonly<Record<string, FlagSpec>>): ParsedArgs {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const rest: string[] = [];
  const names = Object.keys(spec);
  const shortNames = new Map(
    Object.entries(spec).flatMap(([name, flag]) =>
      flag.short === undefined ? [] : [[flag.short, name] as const],
    ),
  );
  const set = (name: string, value: string | boolean): void => {
    if (name in flags) throw new UsageError(`--${name} was given more than once`);
    const flag = spec[name] as FlagSpec;
    if (typeof value === 'string' && flag.choices !== undefined && !flag.choices.includes(value)) {
      throw new UsageError(`--${name} must be one of ${flag.choices.join(', ')}; got ${shown(value)}`);
    }
    flags[name] = value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const flag = Object.hasOwn(spec, name) ? spec[name] : undefined;
      if (flag === undefined) {
        const suggestion = closest(name, names);
        throw new UsageError(
          `unknown option --${shown(name).slice(1, -1)}${suggestion === undefined ? '' : `; did you mean --${suggestion}?`}`,
        );
      }
      if (flag.type === 'boolean') {
        if (eq !== -1) throw new UsageError(`--${name} takes no value`);
        set(name, true);
      } else if (eq !== -1) {
        set(name, arg.slice(eq + 1));
      } else {
        const value = argv[i + 1];
        if (value === undefined || (value.startsWith('-') && value !== '-')) {
          throw new UsageError(`--${name} needs a value: --${name} <${flag.valueName ?? 'value'}>`);
        }
        set(name, value);
        i++;
      }
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const name = shortNames.get(arg.slice(1));
      if (name === undefined || (spec[name] as FlagSpec).type !== 'boolean') {
        throw new UsageError(`unknown option ${shown(arg).slice(1, -1)}`);
      }
      set(name, true);
      continue;
    }
    positionals.push(arg);
  }
  return { flags, positionals, rest };
}

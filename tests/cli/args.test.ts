/** The argument parser of `charter` (parseArgs, closest): flags, values, `--`, and the errors it gives. */
import { describe, expect, test } from 'bun:test';
import { closest, type FlagSpec, parseArgs, UsageError } from '@charter/cli';

const spec: Record<string, FlagSpec> = {
  json: { type: 'boolean' },
  out: { type: 'string', valueName: 'file' },
  runtime: { type: 'string', choices: ['node', 'bun', 'deno'] },
  help: { type: 'boolean', short: 'h' },
};

const usageError = (argv: string[]): string => {
  try {
    parseArgs(argv, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`parseArgs(${JSON.stringify(argv)}) did not throw`);
};

describe('parseArgs', () => {
  test('reads boolean flags, --flag value, --flag=value, short flags and positionals in any order', () => {
    expect(parseArgs(['src/app.ts', '--json', '--out', 'a.json', '-h', '--runtime=bun'], spec)).toEqual({
      flags: { json: true, out: 'a.json', help: true, runtime: 'bun' },
      positionals: ['src/app.ts'],
      rest: [],
    });
  });

  test('an empty value with = is a value; "-" is a positional', () => {
    expect(parseArgs(['--out=', '-'], spec)).toEqual({ flags: { out: '' }, positionals: ['-'], rest: [] });
  });

  test('everything after -- is kept apart, flags included', () => {
    expect(parseArgs(['a.ts', '--', '--json', '-h', 'b'], spec)).toEqual({
      flags: {},
      positionals: ['a.ts'],
      rest: ['--json', '-h', 'b'],
    });
  });

  test('an unknown flag is refused with the closest known one', () => {
    expect(usageError(['--jsn'])).toBe('unknown option --jsn; did you mean --json?');
    expect(usageError(['--runtim', 'bun'])).toBe('unknown option --runtim; did you mean --runtime?');
    expect(usageError(['--yaml'])).toBe('unknown option --yaml');
    expect(usageError(['-x'])).toBe('unknown option -x');
  });

  test('an unknown flag with control characters is shown without them', () => {
    const message = usageError(['--a\u001b[31mb']);
    expect(message).not.toContain('\u001b');
    expect(message).toContain('--a?[31mb');
  });

  test('a string flag needs a value; a boolean flag takes none', () => {
    expect(usageError(['--out'])).toBe('--out needs a value: --out <file>');
    expect(usageError(['--out', '--json'])).toBe('--out needs a value: --out <file>');
    expect(usageError(['--json=yes'])).toBe('--json takes no value');
  });

  test('a value outside the choices, and a flag given twice, are refused', () => {
    expect(usageError(['--runtime', 'rust'])).toBe('--runtime must be one of node, bun, deno; got "rust"');
    expect(usageError(['--json', '--json'])).toBe('--json was given more than once');
  });

  test('a flag named like an Object.prototype member is unknown, not inherited', () => {
    expect(usageError(['--constructor'])).toStartWith('unknown option --constructor');
    expect(usageError(['--__proto__'])).toStartWith('unknown option --__proto__');
  });
});

describe('closest', () => {
  test('suggests within a few edits, and a name that starts with the input', () => {
    expect(closest('rotues', ['routes', 'openapi'])).toBe('routes');
    expect(closest('open', ['routes', 'openapi'])).toBe('openapi');
    expect(closest('doctr', ['doctor', 'dev'])).toBe('doctor');
  });

  test('suggests nothing for an unrelated or very long input', () => {
    expect(closest('zzzzzz', ['routes', 'openapi'])).toBeUndefined();
    expect(closest('x'.repeat(500), ['routes'])).toBeUndefined();
  });
});

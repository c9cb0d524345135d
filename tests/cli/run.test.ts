/**
 * runCli in process, with a recording context: dispatch, help, exit codes, and `charter dev` handing the
 * command it built to spawn (the real runs are in dev.test.ts).
 */
import { describe, expect, test } from 'bun:test';
import { EventEmitter } from 'node:events';
import { COMMANDS, type CliContext, EXIT, runCli } from '@charter/cli';
import { fixture } from './support.ts';

function recorder(cwd = fixture('server'), exitCode = 0) {
  const out = { stdout: '', stderr: '', spawned: [] as Array<{ command: string; args: readonly string[] }> };
  const context: CliContext = {
    cwd,
    env: {},
    global: { Bun: {} },
    execPath: '/usr/local/bin/bun',
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    spawn: (command, args) => {
      out.spawned.push({ command, args });
      const child = new EventEmitter() as EventEmitter & { kill(): boolean };
      child.kill = () => true;
      setTimeout(() => child.emit('exit', exitCode, null), 1);
      return child as never;
    },
  };
  return { out, context };
}

describe('runCli', () => {
  test('the exit codes are 0, 1 and 2', () => {
    expect(EXIT).toEqual({ ok: 0, findings: 1, usage: 2 });
  });

  test('every command has a usage, a summary and --help', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      'routes',
      'openapi',
      'check',
      'doctor',
      'dev',
      'diff',
      'ai',
    ]);
    for (const command of COMMANDS) {
      expect(command.usage.startsWith(command.name)).toBe(true);
      expect(command.flags.help).toBeDefined();
    }
  });

  test('dev spawns the runtime in watch mode and returns its exit code', async () => {
    const { out, context } = recorder(fixture('server'), 3);
    expect(await runCli(['dev', '--', '--port', '1'], context)).toBe(3);
    expect(out.spawned).toEqual([
      { command: '/usr/local/bin/bun', args: ['--hot', 'src/server.ts', '--port', '1'] },
    ]);
    const other = recorder();
    expect(await runCli(['dev', '--runtime', 'node', 'src/app.ts'], other.context)).toBe(0);
    expect(other.out.spawned).toEqual([{ command: 'node', args: ['--watch', 'src/app.ts'] }]);
  });

  test('a usage error prints the message and the usage on stderr, and returns 2', async () => {
    const { out, context } = recorder();
    expect(await runCli(['dev', '--watch'], context)).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'charter dev: unknown option --watch\nUsage: charter dev [entry] [--runtime node|bun|deno] [--dry-run] [-- args...] (charter dev --help)\n',
    );
  });

  test('for other commands, arguments after -- are positionals (an entry named like a flag)', async () => {
    const { out, context } = recorder(fixture('server'));
    expect(await runCli(['routes', '--', '--weird.ts'], context)).toBe(2);
    expect(out.stderr).toContain('the entry "--weird.ts" does not exist');
  });
});

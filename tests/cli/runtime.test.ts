/** Runtime detection and the dev command builder of `charter dev`. */
import { describe, expect, test } from 'bun:test';
import {
  buildDevCommand,
  detectRuntime,
  resolveRuntime,
  runtimeExecutable,
  runtimeFinding,
  UsageError,
} from '@charter/cli';

describe('detectRuntime', () => {
  test('reads the running process: this test runs under Bun', () => {
    expect(detectRuntime()).toBe('bun');
  });

  test('Bun and Deno are recognised before Node, whose globals they also provide', () => {
    const process = { versions: { node: '24.0.0' } };
    expect(detectRuntime({ process })).toBe('node');
    expect(detectRuntime({ process, Bun: {} })).toBe('bun');
    expect(detectRuntime({ process, Deno: {} })).toBe('deno');
  });
});

describe('resolveRuntime', () => {
  test('--runtime overrides the detected runtime; without it the detected one is used', () => {
    expect(resolveRuntime('deno', { Bun: {} })).toBe('deno');
    expect(resolveRuntime('node', { Bun: {} })).toBe('node');
    expect(resolveRuntime(undefined, { Deno: {} })).toBe('deno');
  });

  test('an unknown runtime is a usage error', () => {
    expect(() => resolveRuntime('rust')).toThrow(UsageError);
    expect(() => resolveRuntime('rust')).toThrow('--runtime must be one of node, bun, deno; got "rust"');
  });
});

describe('buildDevCommand', () => {
  test('each runtime gets its watch mode, the entry, then the passed arguments', () => {
    expect(buildDevCommand({ runtime: 'bun', entry: 'src/server.ts', args: ['--port', '4000'] })).toEqual([
      'bun',
      '--hot',
      'src/server.ts',
      '--port',
      '4000',
    ]);
    expect(buildDevCommand({ runtime: 'node', entry: 'src/server.ts' })).toEqual([
      'node',
      '--watch',
      'src/server.ts',
    ]);
    expect(buildDevCommand({ runtime: 'deno', entry: 'main.ts' })).toEqual([
      'deno',
      'run',
      '--watch',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      'main.ts',
    ]);
  });

  test('uses the given executable (the running binary, for the same runtime)', () => {
    expect(buildDevCommand({ runtime: 'node', entry: 'a.ts', executable: '/opt/node24/bin/node' })[0]).toBe(
      '/opt/node24/bin/node',
    );
  });

  test('an unknown runtime is refused', () => {
    expect(() => buildDevCommand({ runtime: 'rust' as never, entry: 'a.ts' })).toThrow(UsageError);
  });
});

describe('runtimeFinding (charter doctor)', () => {
  test('Node before 24 and Bun before 1.3 are errors; supported versions and Deno pass', () => {
    expect(runtimeFinding({ process: { versions: { node: '20.11.0' } } })).toMatchObject({
      code: 'runtime-too-old',
      severity: 'error',
    });
    expect(runtimeFinding({ process: { versions: { node: '24.0.0' } } })).toBeUndefined();
    expect(runtimeFinding({ Bun: { version: '1.2.9' } })).toMatchObject({ code: 'runtime-too-old' });
    expect(runtimeFinding({ Bun: { version: '1.3.0' } })).toBeUndefined();
    expect(runtimeFinding({ Bun: { version: '2.0.0' } })).toBeUndefined();
    expect(runtimeFinding({ Deno: {} })).toBeUndefined();
  });
});

describe('runtimeExecutable', () => {
  test('the running binary, except bunx (bunx --bun), whose bun sibling starts Bun', () => {
    expect(runtimeExecutable('/usr/bin/node')).toBe('/usr/bin/node');
    expect(runtimeExecutable('/opt/bun/bin/bun')).toBe('/opt/bun/bin/bun');
    expect(runtimeExecutable('/opt/bun/bin/bunx', (p) => p === '/opt/bun/bin/bun')).toBe('/opt/bun/bin/bun');
    expect(runtimeExecutable('/opt/bun/bin/bunx.exe', (p) => p === '/opt/bun/bin/bun.exe')).toBe(
      '/opt/bun/bin/bun.exe',
    );
    expect(runtimeExecutable('/opt/bun/bin/bunx', () => false)).toBe('bun');
  });
});

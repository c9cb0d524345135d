/** Versions and machine facts recorded with a peers run (bench/peers.ts). */
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { availableParallelism, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadTool } from './load.ts';

const ROOT = join(import.meta.dir, '..');

export function packageVersion(name: string, from = ROOT): string {
  try {
    return (
      JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'not installed';
  }
}

function charterVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'packages', 'charter', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * The versions a run compared: runtimes, frameworks, validators, wrk, and Charter's commit (or the
 * other build it loaded, `charterDist`).
 */
export function versions(
  nodeVersion: string | undefined,
  charterDist: string | undefined,
): Record<string, string> {
  // Elysia's own TypeBox (a peer dependency, linked beside it in an isolated install).
  let elysiaTypebox = packageVersion('@sinclair/typebox');
  try {
    const elysiaDir = realpathSync(join(ROOT, 'node_modules', 'elysia'));
    elysiaTypebox = packageVersion('@sinclair/typebox', join(elysiaDir, '..', '..'));
  } catch {}
  const git = (args: string[]): string =>
    spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dirty = git(['status', '--porcelain', '--', 'packages']).split('\n').filter(Boolean).length;
  return {
    bun: Bun.version,
    node: nodeVersion ?? 'not run',
    charter:
      charterDist === undefined
        ? `${charterVersion()} (git ${git(['rev-parse', '--short', 'HEAD'])}${dirty > 0 ? `, ${dirty} changed files under packages/` : ''})`
        : `${charterVersion()} (BENCH_CHARTER_DIST=${charterDist})`,
    elysia: packageVersion('elysia'),
    '@sinclair/typebox (Elysia)': elysiaTypebox,
    hono: packageVersion('hono'),
    '@hono/standard-validator': packageVersion('@hono/standard-validator'),
    '@hono/node-server': packageVersion('@hono/node-server'),
    fastify: packageVersion('fastify'),
    zod: packageVersion('zod'),
    arktype: packageVersion('arktype'),
    wrk:
      loadTool() === 'wrk'
        ? (spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]?.trim() ?? 'wrk')
        : 'not used',
  };
}

/** The machine a run was made on. */
export function machine(): Record<string, string | number> {
  const cpu =
    /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown';
  return {
    nproc: availableParallelism(),
    kernel: release(),
    cpu,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: loadavg()[0]?.toFixed(2) ?? '',
  };
}

/**
 * Finds (or installs) the Node >= 24 that runs the Node servers of the peers benchmark, as `.ci/run` does
 * for the Node adapter tests: NODE24_PATH; else `node` on PATH when it is 24 or later; else the registry's
 * `node` package in NODE24_PREFIX (default /opt/charter-node24, where `.ci/run` puts it), installed there
 * with npm at the version `.ci/run` pins when it is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');

function versionOf(binary: string): string | undefined {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function major(version: string | undefined): number {
  return Number(/^v(\d+)\./.exec(version ?? '')?.[1] ?? 0);
}

/** The Node 24 version `.ci/run` installs (NODE24_VERSION=...), else the latest 24. */
function pinnedVersion(): string {
  try {
    return /^NODE24_VERSION="([^"]+)"/m.exec(readFileSync(join(ROOT, '.ci/run'), 'utf8'))?.[1] ?? '24';
  } catch {
    return '24';
  }
}

function platformPackage(): string {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : process.arch;
  return `node-${process.platform}-${arch}`;
}

/** The Node >= 24 binary and its version; throws, saying how to get one, when there is none. */
export function node24(): { path: string; version: string } {
  const fromEnv = process.env.NODE24_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    const version = versionOf(fromEnv);
    if (major(version) < 24)
      throw new Error(`NODE24_PATH=${fromEnv} is ${version ?? 'not runnable'}, not Node >= 24`);
    return { path: fromEnv, version: version as string };
  }
  const onPath = Bun.which('node');
  const pathVersion = onPath === null ? undefined : versionOf(onPath);
  if (onPath !== null && major(pathVersion) >= 24) return { path: onPath, version: pathVersion as string };

  const prefix = process.env.NODE24_PREFIX || '/opt/charter-node24';
  const candidates = [
    join(prefix, 'node_modules/node/bin/node'),
    join(prefix, 'node_modules', platformPackage(), 'bin/node'),
  ];
  const existing = (): { path: string; version: string } | undefined => {
    for (const path of candidates) {
      const version = existsSync(path) ? versionOf(path) : undefined;
      if (major(version) >= 24) return { path, version: version as string };
    }
    return undefined;
  };
  const found = existing();
  if (found !== undefined) return found;

  const version = pinnedVersion();
  console.log(`Node 24 not found: installing node@${version} into ${prefix} (npm)`);
  for (const pkg of ['node', platformPackage()]) {
    spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--no-fund', '--no-audit', '--no-save', `${pkg}@${version}`],
      {
        stdio: 'inherit',
      },
    );
    const installed = existing();
    if (installed !== undefined) return installed;
  }
  throw new Error(
    `No Node >= 24 (node on PATH: ${pathVersion ?? 'none'}), and installing it into ${prefix} failed. ` +
      'Set NODE24_PATH to a Node >= 24 binary, or run the Bun servers only (BENCH_RUNTIMES=bun).',
  );
}

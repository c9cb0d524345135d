/**
 * `bun run pack`: the tarballs a person installs, `dist/charter-<version>.tgz` and
 * `dist/create-charter-<version>.tgz`, until the packages are on the public registry.
 *
 * Each package is staged in a temporary directory with what it ships and nothing else: the files its
 * manifest lists (`files`), the root LICENSE, and its manifest without `devDependencies` and `scripts`
 * (the workspace links are for building in this repository; a consumer's package manager must never
 * see a `workspace:` range). `bun pm pack` then writes the tarball. `--no-build` packs the current
 * builds (`bun run build` for charter; create-charter is always bundled here, it is one file).
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dir, '..');
export const PACK_DIR = join(ROOT, 'dist');
const CHARTER_DIR = join(ROOT, 'packages', 'charter');
export const CREATE_CHARTER_DIR = join(ROOT, 'packages', 'create-charter');

class PackError extends Error {}

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  [key: string]: unknown;
}

async function run(cmd: string[], cwd: string): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0)
    throw new PackError(`${cmd.join(' ')} (in ${cwd}) exited with ${code}:\n${stdout}${stderr}`);
  return stdout;
}

/** Bundles create-charter's CLI into `packages/create-charter/dist/create-charter.js`, runnable by Node. */
export async function buildCreateCharter(): Promise<void> {
  const outdir = join(CREATE_CHARTER_DIR, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  const result = await Bun.build({
    entrypoints: [join(CREATE_CHARTER_DIR, 'src', 'create-charter.ts')],
    outdir,
    target: 'node',
    format: 'esm',
    banner: '#!/usr/bin/env node',
  });
  if (!result.success)
    throw new PackError(`create-charter did not build:\n${result.logs.map(String).join('\n')}`);
  chmodSync(join(outdir, 'create-charter.js'), 0o755);
}

/** The manifest as published: no dev-only fields, and no `workspace:` range anywhere. */
export function publishedManifest(manifest: Manifest): Manifest {
  const { devDependencies: _dev, scripts: _scripts, private: _private, ...published } = manifest;
  const text = JSON.stringify(published);
  if (text.includes('workspace:')) {
    const entry = /"([^"]*)":"(workspace:[^"]*)"/.exec(text);
    const where = entry === null ? 'workspace:' : `${entry[1]}: ${entry[2]}`;
    throw new PackError(`${manifest.name}: a workspace: range would be published (${where})`);
  }
  return published as Manifest;
}

/** Every file the manifest's `exports` and `bin` name (a published entry that is missing breaks every install). */
function shippedPaths(manifest: Manifest): string[] {
  const targets = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(targets)
        : [];
  return [...targets(manifest.exports), ...targets(manifest.bin)]
    .filter((path) => path !== './package.json' && !path.includes('*'))
    .map((path) => path.replace(/^\.\//, ''));
}

/** Stages `packageDir` and packs it into `outDir`; returns the tarball's path. */
export async function packPackage(packageDir: string, outDir = PACK_DIR): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const stage = mkdtempSync(join(tmpdir(), `pack-${manifest.name}-`));
  try {
    for (const entry of manifest.files ?? []) {
      const from = existsSync(join(packageDir, entry)) ? join(packageDir, entry) : join(ROOT, entry);
      if (!existsSync(from)) {
        throw new PackError(
          `${manifest.name}: "${entry}" is in files but exists neither in ${relative(ROOT, packageDir)} nor at the root (build first?)`,
        );
      }
      cpSync(from, join(stage, entry), { recursive: true });
    }
    const missing = shippedPaths(manifest).filter((path) => !existsSync(join(stage, path)));
    if (missing.length > 0) {
      throw new PackError(
        `${manifest.name}: the manifest points at files the package would not contain (run bun run build first?): ${missing.join(', ')}`,
      );
    }
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
    mkdirSync(outDir, { recursive: true });
    const name = `${manifest.name}-${manifest.version}.tgz`;
    rmSync(join(outDir, name), { force: true });
    await run([process.execPath, 'pm', 'pack', '--destination', outDir, '--quiet'], stage);
    const tarball = join(outDir, name);
    if (!existsSync(tarball)) throw new PackError(`bun pm pack wrote no ${relative(ROOT, tarball)}`);
    return tarball;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Builds charter (unless `build` is false), bundles create-charter, and packs both into `outDir`. */
export async function packAll(
  build = true,
  outDir = PACK_DIR,
): Promise<{ charter: string; createCharter: string }> {
  if (build) await run([process.execPath, 'run', 'build'], ROOT);
  await buildCreateCharter();
  return {
    charter: await packPackage(CHARTER_DIR, outDir),
    createCharter: await packPackage(CREATE_CHARTER_DIR, outDir),
  };
}

if (import.meta.main) {
  try {
    const { charter, createCharter } = await packAll(!process.argv.includes('--no-build'));
    console.log(`packed:\n  ${relative(ROOT, charter)}\n  ${relative(ROOT, createCharter)}`);
    console.log(
      `scaffold: bunx --package file:${createCharter} create-charter my-app --charter file:${charter}`,
    );
    console.log(`or add it to a project: bun add file:${charter}`);
  } catch (error) {
    console.error(
      `\npack FAILED: ${error instanceof PackError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  }
}

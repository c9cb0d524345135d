/**
 * Runs a script on real Deno (the registry's `deno` package, node_modules/deno/deno) against the built
 * package: an import map made from packages/charter/package.json's exports maps `charter/*` onto
 * packages/charter/dist, as a user's `npm:charter` would resolve, and `zod` onto node_modules. Deno
 * fetches nothing: `--no-remote --no-npm`, a fresh DENO_DIR, and a working directory outside the repo
 * (so no package.json or node_modules is picked up on the side).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { denoBinary } from '../../../support/deno-binary.ts';

const ROOT = resolve(import.meta.dir, '../../../..');
const CHARTER = join(ROOT, 'packages', 'charter');

let denoBin = '';

/** The workspace of one Deno run: its import map and DENO_DIR, removed by `dispose`. */
export interface DenoSandbox {
  readonly dir: string;
  readonly config: string;
  dispose(): void;
}

export function denoSandbox(): DenoSandbox {
  denoBin = denoBinary();
  if (!existsSync(join(CHARTER, 'dist', 'deno.js'))) {
    throw new Error('packages/charter/dist/deno.js is missing: run `bun run build` first');
  }
  const dir = mkdtempSync(join(tmpdir(), 'charter-deno-'));
  const pkg = JSON.parse(readFileSync(join(CHARTER, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const imports: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    imports[`charter${subpath.slice(1)}`] = pathToFileURL(join(CHARTER, target.default)).href;
  }
  imports.zod = pathToFileURL(join(ROOT, 'node_modules', 'zod', 'index.js')).href;
  const config = join(dir, 'deno.json');
  writeFileSync(config, JSON.stringify({ imports }, null, 2));
  return { dir, config, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Spawns `deno run` on a script of this folder. */
export function spawnDeno(
  sandbox: DenoSandbox,
  script: string,
  args: readonly string[] = [],
): ReturnType<typeof Bun.spawn<'ignore', 'pipe', 'pipe'>> {
  return Bun.spawn(
    [
      denoBin,
      'run',
      // The one permission charter/deno needs (the docs say so): no env, no file system.
      '--allow-net',
      '--no-remote',
      '--no-npm',
      '--no-lock',
      '--no-prompt',
      '--config',
      sandbox.config,
      join(import.meta.dir, script),
      ...args,
    ],
    {
      cwd: sandbox.dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: sandbox.dir,
        DENO_DIR: join(sandbox.dir, 'cache'),
        NO_COLOR: '1',
      },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
}

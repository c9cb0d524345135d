/**
 * The deno binary of the registry's `deno` package, for tests that run Deno. Its postinstall (which bun
 * blocks unless trusted) only copies the binary out of the platform package it depends on
 * (`@deno/linux-x64-glibc`...), and its bin script does the same on first use: this does it too,
 * offline, when the copy is missing. Tests spawn the binary itself, never `node_modules/.bin/deno`:
 * that is a Node script running deno as its child, so killing it would leave Deno running.
 */
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const DENO_PACKAGE_BIN = join(ROOT, 'node_modules', 'deno', 'deno');

export function denoBinary(): string {
  // Its real path, which is what Deno reports as its own (`Deno.execPath()`).
  if (existsSync(DENO_PACKAGE_BIN)) return realpathSync(DENO_PACKAGE_BIN);
  const require = createRequire(join(ROOT, 'package.json'));
  const { runInstall } = require('deno/install_api.cjs') as { runInstall(): string };
  return runInstall();
}

/**
 * Links `<folder>/node_modules/charter` to packages/charter (idempotent), so the fixture projects in
 * that folder import the built package BY NAME, as a consumer would. Every test file that imports from
 * such a fixture calls it itself: test files run in any order, and a fresh checkout has no link yet.
 */
import { existsSync, lstatSync, mkdirSync, realpathSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const CHARTER_DIR = join(import.meta.dir, '../../packages/charter');

export function linkCharterInto(folder: string): void {
  const link = join(folder, 'node_modules', 'charter');
  let stat: ReturnType<typeof lstatSync> | undefined;
  try {
    stat = lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink() && existsSync(link) && realpathSync(link) === realpathSync(CHARTER_DIR)) return;
  if (stat && !stat.isSymbolicLink()) throw new Error(`${link} exists and is not a symlink; remove it`);
  if (stat) unlinkSync(link);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(relative(dirname(link), CHARTER_DIR), link, 'dir');
}

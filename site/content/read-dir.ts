/**
 * Reads `content/` from disk into `ContentEntry` objects for `buildContent`. Every regular file is
 * returned, whatever its name or depth, so that `buildContent` can refuse the misplaced ones; only
 * dot-files and dot-folders (`.DS_Store`, `.obsidian/`) are skipped, as editor and OS litter.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentEntry } from './types.ts';

/** Every file under `dir` (recursively) as `{ file, text }`, `file` `/`-separated, sorted by path. */
export async function readContentDir(dir: string): Promise<ContentEntry[]> {
  const entries: ContentEntry[] = [];
  await walk(dir, '', entries);
  return entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

async function walk(root: string, prefix: string, into: ContentEntry[]): Promise<void> {
  const children = await readdir(join(root, prefix), { withFileTypes: true });
  for (const child of children) {
    if (child.name.startsWith('.')) continue;
    const file = prefix === '' ? child.name : `${prefix}/${child.name}`;
    if (child.isDirectory()) await walk(root, file, into);
    else if (child.isFile()) into.push({ file, text: await readFile(join(root, file), 'utf8') });
  }
}

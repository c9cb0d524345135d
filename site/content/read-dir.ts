/**
 * Reads `content/` from disk into `ContentEntry` objects for `buildContent`. Every regular file is
 * returned, whatever its name or depth, so that `buildContent` can refuse the misplaced ones; only
 * dot-files and dot-folders (`.DS_Store`, `.obsidian/`) are skipped, as editor and OS litter. A page
 * holding the line `<!-- changelog -->` gets the `CHANGELOG.md` beside the folder in its place
 * (`changelog.ts`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CHANGELOG_MARKER, expandChangelog } from './changelog.ts';
import type { ContentEntry } from './types.ts';

/** Every file under `dir` (recursively) as `{ file, text }`, `file` `/`-separated, sorted by path. */
export async function readContentDir(dir: string): Promise<ContentEntry[]> {
  const entries: ContentEntry[] = [];
  await walk(dir, '', entries);
  let changelog: string | undefined | null = null;
  for (const [i, entry] of entries.entries()) {
    if (!entry.text.includes(CHANGELOG_MARKER)) continue;
    if (changelog === null) changelog = await readOptional(join(dirname(resolve(dir)), 'CHANGELOG.md'));
    entries[i] = { file: entry.file, text: expandChangelog(entry.text, changelog) };
  }
  return entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** A file's text, or undefined when there is no such file. */
async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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

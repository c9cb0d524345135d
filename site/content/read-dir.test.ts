import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContentDir } from './read-dir.ts';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'charter-content-'));
  await mkdir(join(dir, 'docs', 'deep'), { recursive: true });
  await mkdir(join(dir, '.obsidian'));
  await writeFile(join(dir, 'index.md'), '# Home ü\n');
  await writeFile(join(dir, 'docs', 'jwt.md'), 'jwt');
  await writeFile(join(dir, 'docs', 'deep', 'x.md'), 'deep');
  await writeFile(join(dir, 'notes.txt'), 'not markdown');
  await writeFile(join(dir, '.DS_Store'), 'litter');
  await writeFile(join(dir, '.obsidian', 'app.json'), '{}');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readContentDir', () => {
  test('returns every file with a /-separated relative path and its UTF-8 text, sorted by path', async () => {
    expect(await readContentDir(dir)).toEqual([
      { file: 'docs/deep/x.md', text: 'deep' },
      { file: 'docs/jwt.md', text: 'jwt' },
      { file: 'index.md', text: '# Home ü\n' },
      { file: 'notes.txt', text: 'not markdown' },
    ]);
  });

  test('rejects a directory that does not exist', async () => {
    await expect(readContentDir(join(dir, 'missing'))).rejects.toThrow();
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_URL } from '../html/project.ts';
import { buildContent } from './build.ts';
import { CHANGELOG_MARKER, changelogMarkdown, expandChangelog, NO_CHANGELOG } from './changelog.ts';
import { readContentDir } from './read-dir.ts';

const STUB = `---\ntitle: Changelog\ndescription: Every change.\norder: 90\n---\n\n${CHANGELOG_MARKER}\n`;

describe('changelogMarkdown', () => {
  test('points repository-relative links at the file on GitHub and leaves URLs and fragments alone', () => {
    const text = [
      '# Changelog',
      '',
      '- See [the guide](content/docs/jwt.md#verify), [the package](./packages/charter/../charter/package.json).',
      '- [Keep a Changelog](https://keepachangelog.com/) and [below](#unreleased), [site](/docs/jwt).',
      '',
      '[0.1.0]: https://github.com/charter-dev/charter/releases/tag/v0.1.0',
      '[license]: LICENSE',
    ].join('\n');
    const out = changelogMarkdown(text);
    expect(out).toContain(`[the guide](${REPOSITORY_URL}/blob/main/content/docs/jwt.md#verify)`);
    expect(out).toContain(`[the package](${REPOSITORY_URL}/blob/main/packages/charter/package.json)`);
    expect(out).toContain('[Keep a Changelog](https://keepachangelog.com/)');
    expect(out).toContain('[below](#unreleased)');
    expect(out).toContain('[site](/docs/jwt)');
    expect(out).toContain('[0.1.0]: https://github.com/charter-dev/charter/releases/tag/v0.1.0');
    expect(out).toContain(`[license]: ${REPOSITORY_URL}/blob/main/LICENSE`);
  });

  test('never leaves the repository root through ../', () => {
    expect(changelogMarkdown('# C\n\n[x](../../etc/passwd)')).toContain(
      `[x](${REPOSITORY_URL}/blob/main/etc/passwd)`,
    );
  });

  test('adds a heading when the file has none, and says so when there is no changelog yet', () => {
    expect(changelogMarkdown('## 0.1.0\n\n- First.')).toStartWith('# Changelog\n\n## 0.1.0');
    expect(changelogMarkdown(undefined)).toBe(NO_CHANGELOG);
    expect(changelogMarkdown('  \n')).toBe(NO_CHANGELOG);
  });

  test('expandChangelog replaces only the marker line', () => {
    expect(expandChangelog(STUB, '# Changelog\n\n- One.\n')).toEndWith('---\n\n# Changelog\n\n- One.\n');
    expect(expandChangelog('no marker\n', 'x')).toBe('no marker\n');
  });
});

describe('the changelog page', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'charter-changelog-'));
    await mkdir(join(root, 'content'));
    await writeFile(
      join(root, 'content', 'index.md'),
      '---\ntitle: Home\ndescription: Home.\norder: 0\n---\n\n# Home\n',
    );
    await writeFile(join(root, 'content', 'changelog.md'), STUB);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test('reads as a note before CHANGELOG.md exists, then renders it', async () => {
    const before = buildContent(await readContentDir(join(root, 'content')));
    expect(before.byPath('changelog')?.html).toContain('No release has been recorded yet');
    await writeFile(
      join(root, 'CHANGELOG.md'),
      '# Changelog\n\n## [0.1.0] - 2026-11-27\n\n- The first release.\n',
    );
    const after = buildContent(await readContentDir(join(root, 'content')));
    const page = after.byPath('changelog');
    expect(page?.url).toBe('/changelog');
    expect(page?.html).toContain('<li>The first release.</li>');
    expect(page?.headings.map((heading) => heading.text)).toEqual(['[0.1.0] - 2026-11-27']);
  });
});

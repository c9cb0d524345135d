/**
 * The changelog page: `content/changelog.md` holds the page's front matter and the line
 * `<!-- changelog -->`, which `readContentDir` replaces with the repository's root `CHANGELOG.md`
 * (Keep a Changelog format), so the page is rendered from that file and never copied by hand. Its
 * relative links (to files of the repository) become links to the file on GitHub, which the
 * content build does not need to check. Until the file exists, the page says so.
 */
import { sourceUrl } from '../html/project.ts';

/** The line of a content page that stands for the changelog. */
export const CHANGELOG_MARKER = '<!-- changelog -->';

/** What the page says while the repository has no `CHANGELOG.md`. */
export const NO_CHANGELOG =
  "# Changelog\n\nNo release has been recorded yet: this page shows the repository's `CHANGELOG.md` once it exists.\n";

/** A link destination that names a file of the repository: not a URL, not a fragment, not a site path. */
function isRepositoryPath(destination: string): boolean {
  return !/^(?:[a-z][a-z0-9+.-]*:|\/|#)/i.test(destination);
}

/** `./docs/x.md` or `packages/a/b.ts` as the GitHub URL of that file (normalised, never above the root). */
function repositoryLink(destination: string): string {
  const [path = '', fragment] = destination.split('#', 2);
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `${sourceUrl(parts.join('/'))}${fragment === undefined ? '' : `#${fragment}`}`;
}

/**
 * The changelog's Markdown as the page shows it: repository-relative link destinations (inline
 * `[text](path)` and reference definitions `[label]: path`) rewritten to GitHub URLs, and a
 * `# Changelog` heading when the file has none.
 */
export function changelogMarkdown(text: string | undefined): string {
  if (text === undefined || text.trim() === '') return NO_CHANGELOG;
  const linked = text
    .replace(/\]\(([^()\s]{1,500})\)/g, (whole, destination: string) =>
      isRepositoryPath(destination) ? `](${repositoryLink(destination)})` : whole,
    )
    .replace(
      /^( {0,3}\[[^\]\n]{1,200}\]:[ \t]*)(\S{1,500})/gm,
      (whole, label: string, destination: string) =>
        isRepositoryPath(destination) ? `${label}${repositoryLink(destination)}` : whole,
    );
  return /^# /m.test(linked.split('\n', 5).join('\n')) ? linked : `# Changelog\n\n${linked}`;
}

/** `text` with the marker line replaced by the changelog (or the note that there is none yet). */
export function expandChangelog(text: string, changelog: string | undefined): string {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.trim() === CHANGELOG_MARKER);
  if (at === -1) return text;
  lines.splice(at, 1, changelogMarkdown(changelog).trimEnd());
  return lines.join('\n');
}

/**
 * The project facts every page shows: the package's version and the source repository, read from
 * `packages/charter/package.json` (bundled into the compiled site, so nothing is read at run time).
 * The repository is the package's own `repository` field when it names a real GitHub project, else
 * `DEFAULT_REPOSITORY_URL`: one constant, so the header, the footer and every "edit this page" link
 * agree.
 */
import charterPackage from '../../packages/charter/package.json' with { type: 'json' };

/** Used until `packages/charter/package.json` names its repository. */
export const DEFAULT_REPOSITORY_URL = 'https://github.com/charter-dev/charter';

/** The branch "edit this page" links open. */
export const REPOSITORY_BRANCH = 'main';

/**
 * The repository's web URL from a package.json `repository` field (a string or `{ url }`,
 * `git+https://github.com/o/r.git` and `github:o/r` forms), or undefined when it is missing, not on
 * GitHub, or still a placeholder (`OWNER`, `example`, `<...>`).
 */
export function repositoryUrlOf(field: unknown): string | undefined {
  const raw =
    typeof field === 'string'
      ? field
      : typeof field === 'object' && field !== null && typeof (field as { url?: unknown }).url === 'string'
        ? (field as { url: string }).url
        : undefined;
  if (raw === undefined) return undefined;
  const match =
    /^(?:git\+)?(?:https:\/\/github\.com\/|github:)([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/.exec(
      raw.trim(),
    );
  if (match === null) return undefined;
  const [, owner = '', name = ''] = match;
  if (/^(owner|org|user|example|your-?\w*|placeholder|todo)$/i.test(owner)) return undefined;
  return `https://github.com/${owner}/${name}`;
}

/** The repository every page links: the package's, or the default. */
export const REPOSITORY_URL: string =
  repositoryUrlOf((charterPackage as { repository?: unknown }).repository) ?? DEFAULT_REPOSITORY_URL;

/** The published version of `charter` (`0.1.0`). */
export const PACKAGE_VERSION: string = charterPackage.version;

/** The web URL that edits `file` (relative to the repository root) on GitHub. */
export function editUrl(file: string): string {
  return `${REPOSITORY_URL}/edit/${REPOSITORY_BRANCH}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** The web URL that shows `file` (relative to the repository root) on GitHub. */
export function sourceUrl(file: string): string {
  return `${REPOSITORY_URL}/blob/${REPOSITORY_BRANCH}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

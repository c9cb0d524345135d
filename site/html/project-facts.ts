/**
 * The project facts every page shows, read from `packages/charter/package.json`: run as a Bun macro
 * by `project.ts` (`with { type: 'macro' }`), so the compiled site holds the results as literals and
 * neither reads the manifest nor runs the repository pattern at start (issue 18, item 6).
 */
import charterPackage from '../../packages/charter/package.json' with { type: 'json' };

/** Used until `packages/charter/package.json` names its repository. */
export const DEFAULT_REPOSITORY_URL = 'https://github.com/charter-dev/charter';

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

/** The repository every page links (the package's, or the default) and the published version. */
export function projectFacts(): { readonly repositoryUrl: string; readonly version: string } {
  return {
    repositoryUrl:
      repositoryUrlOf((charterPackage as { repository?: unknown }).repository) ?? DEFAULT_REPOSITORY_URL,
    version: charterPackage.version,
  };
}

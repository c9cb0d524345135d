/**
 * The project facts every page shows: the package's version and the source repository, read from
 * `packages/charter/package.json` when the code is bundled (`project-facts.ts`, a Bun macro).
 * The repository is the package's own `repository` field when it names a real GitHub project, else
 * `DEFAULT_REPOSITORY_URL`: one constant, so the header, the footer and every "edit this page" link
 * agree.
 */
import { projectFacts } from './project-facts.ts' with { type: 'macro' };

export { DEFAULT_REPOSITORY_URL, repositoryUrlOf } from './project-facts.ts';

// Read from the manifest when the code is bundled (project-facts.ts).
const FACTS = projectFacts();

/** The branch "edit this page" links open. */
export const REPOSITORY_BRANCH = 'main';

/** The repository every page links: the package's, or the default. */
export const REPOSITORY_URL: string = FACTS.repositoryUrl;

/** The published version of `charter` (`0.1.0`). */
export const PACKAGE_VERSION: string = FACTS.version;

/** The web URL that edits `file` (relative to the repository root) on GitHub. */
export function editUrl(file: string): string {
  return `${REPOSITORY_URL}/edit/${REPOSITORY_BRANCH}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** The web URL that shows `file` (relative to the repository root) on GitHub. */
export function sourceUrl(file: string): string {
  return `${REPOSITORY_URL}/blob/${REPOSITORY_BRANCH}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

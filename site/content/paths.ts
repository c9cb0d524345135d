/**
 * Where a content file lives on the site: its page path, canonical URL, Markdown URL and section,
 * following the table in `types.ts`. File names are the URL, so they are held to a strict alphabet.
 */
import { ContentError } from './content-error.ts';

/** The addresses of one content file. */
export interface PagePlace {
  /** `docs/jwt.md` */
  readonly file: string;
  /** `docs/jwt`; `index` for `index.md`; `docs` for `docs/index.md`. */
  readonly path: string;
  /** `/docs/jwt`; `/` for the home page. */
  readonly url: string;
  /** `/docs/jwt.md`; `/index.md` for the home page. */
  readonly markdownUrl: string;
  /** `docs`, or `''` for a top-level file. */
  readonly section: string;
}

const ALLOWED = 'abcdefghijklmnopqrstuvwxyz0123456789-/';

/**
 * Places a content file. Throws `ContentError` when the name does not end in `.md`, uses characters
 * outside `[a-z0-9-/]`, has an empty segment, or sits more than one folder deep.
 */
export function placeFile(file: string): PagePlace {
  if (!file.endsWith('.md')) {
    throw new ContentError(file, undefined, 'only Markdown files (.md) belong in content/');
  }
  const stem = file.slice(0, -'.md'.length);
  for (const char of stem) {
    if (!ALLOWED.includes(char)) {
      throw new ContentError(
        file,
        undefined,
        `file names may use only a-z, 0-9, '-' and '/' (found ${JSON.stringify(char)})`,
      );
    }
  }
  const segments = stem.split('/');
  if (segments.some((segment) => segment === '')) {
    throw new ContentError(file, undefined, 'the file path has an empty segment');
  }
  if (segments.length > 2) {
    throw new ContentError(
      file,
      undefined,
      'content/ folders nest one level deep at most (content/<section>/<page>.md)',
    );
  }
  const [first = '', second] = segments;
  const section = second === undefined ? '' : first;
  const path = second === undefined ? first : second === 'index' ? first : stem;
  const url = path === 'index' ? '/' : `/${path}`;
  const markdownUrl = path === 'index' ? '/index.md' : `${url}.md`;
  return { file, path, url, markdownUrl, section };
}

/** The navigation title of a section: `Guides` for `docs`, `Errors` for `errors`, else from its name. */
export function sectionTitle(section: string): string {
  if (section === '') return 'Overview';
  if (section === 'docs') return 'Guides';
  if (section === 'errors') return 'Errors';
  const words = section.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Sections in navigation order: top-level first, then `docs`, `errors`, then the others by name. */
export function compareSections(a: string, b: string): number {
  const rank = (section: string): number =>
    section === '' ? 0 : section === 'docs' ? 1 : section === 'errors' ? 2 : 3;
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Links between pages. Authors link to another page with a relative path to its file
 * (`[JWT](./jwt.md)`, `[errors](../errors/not-found.md#cause)`), which works on GitHub and in editors;
 * the site writes the canonical URL (`/docs/jwt`) instead. Every link into the content is checked at
 * build time, fragment included, so a broken link fails the build instead of reaching a reader:
 *
 * | destination                                | written as                 | checked                           |
 * | ------------------------------------------ | -------------------------- | --------------------------------- |
 * | `./jwt.md`, `../index.md#install`          | `/docs/jwt`, `/#install`   | file exists; fragment is a heading |
 * | `#install`                                 | unchanged                  | fragment is a heading of the page |
 * | `/docs/jwt#x`, `/docs/jwt.md`              | unchanged                  | page exists when the first segment is a content folder, or the path is a page's URL; fragment |
 * | `/llms.txt`, `/api/v1` (not content)       | unchanged                  | no                                |
 * | `https:`, `http:`, `mailto:`, `//host`     | unchanged                  | no                                |
 * | other relative (`./jwt`, `img.png`)        | refused: build error       |                                   |
 */
import { ContentError } from './content-error.ts';
import type { MarkdownLink } from './markdown.ts';
import type { PagePlace } from './paths.ts';
import { schemeOf } from './safe-url.ts';

/** An internal link to check once every page is rendered: `path` must exist and have `fragment`. */
export interface InternalLink {
  readonly file: string;
  readonly line: number | undefined;
  readonly href: string;
  /** Page path of the target (`docs/jwt`). */
  readonly path: string;
  /** Decoded fragment without `#`; `''` when the link has none. */
  readonly fragment: string;
}

/** The content being built, as the link checker needs it. */
export interface LinkIndex {
  readonly byFile: ReadonlyMap<string, PagePlace>;
  /** Keyed by canonical URL and by Markdown URL. */
  readonly byUrl: ReadonlyMap<string, PagePlace>;
  /** Top-level folders of `content/`. */
  readonly sections: ReadonlySet<string>;
}

/** Where a link appears, for error messages. */
export interface LinkSource {
  readonly place: PagePlace;
  /** The page's Markdown body and the file line it starts on. */
  readonly body: string;
  readonly bodyLine: number;
}

/**
 * Returns the `rewriteHref` for one page: it rewrites relative `.md` links to canonical URLs, throws
 * `ContentError` for links to missing files, and records internal links in `found` for `checkFragments`.
 */
export function linkRewriter(
  index: LinkIndex,
  source: LinkSource,
  found: InternalLink[],
): (link: MarkdownLink) => string {
  const { file } = source.place;
  return (link) => {
    const line = lineOf(source, link.raw);
    const href = link.href;
    if (schemeOf(href) !== undefined || href.startsWith('//')) return href;
    const { path, suffix, fragment } = splitHref(href);
    const record = (target: PagePlace): void => {
      found.push({ file, line, href, path: target.path, fragment });
    };
    if (path === '') {
      record(source.place);
      return href;
    }
    if (path.startsWith('/')) {
      const target = index.byUrl.get(path);
      if (target !== undefined) record(target);
      else if (index.sections.has(path.split('/')[1] ?? '')) {
        throw new ContentError(
          file,
          line,
          `broken link ${JSON.stringify(href)}: no page has the URL ${path}`,
        );
      }
      return href;
    }
    if (!path.endsWith('.md')) {
      throw new ContentError(
        file,
        line,
        `relative link ${JSON.stringify(href)} must name a Markdown file (./page.md) or be absolute (/docs/page)`,
      );
    }
    const targetFile = resolveRelative(file, path);
    const target = targetFile === undefined ? undefined : index.byFile.get(targetFile);
    if (target === undefined) {
      throw new ContentError(
        file,
        line,
        `broken link ${JSON.stringify(href)}: content/${targetFile ?? path} does not exist`,
      );
    }
    record(target);
    return target.url + suffix;
  };
}

/** Throws `ContentError` for the first internal link whose fragment is not a heading id of its target. */
export function checkFragments(
  links: readonly InternalLink[],
  idsByPath: ReadonlyMap<string, ReadonlySet<string>>,
): void {
  for (const link of links) {
    if (link.fragment === '') continue;
    if (idsByPath.get(link.path)?.has(link.fragment) === true) continue;
    throw new ContentError(
      link.file,
      link.line,
      `broken link ${JSON.stringify(link.href)}: the page ${link.path} has no heading with the id "${link.fragment}"`,
    );
  }
}

/** Splits `a/b.md?q#f` into the path, the `?q#f` suffix and the decoded fragment `f`. */
function splitHref(href: string): { path: string; suffix: string; fragment: string } {
  const hash = href.indexOf('#');
  const beforeHash = hash === -1 ? href : href.slice(0, hash);
  const question = beforeHash.indexOf('?');
  const path = question === -1 ? beforeHash : beforeHash.slice(0, question);
  const raw = hash === -1 ? '' : href.slice(hash + 1);
  let fragment = raw;
  try {
    fragment = decodeURIComponent(raw);
  } catch {
    // A malformed escape cannot match a heading id; keep it as written for the error message.
  }
  return { path, suffix: href.slice(path.length), fragment };
}

/** Resolves `target` against the folder of `file` (both relative to `content/`); undefined above the root. */
function resolveRelative(file: string, target: string): string | undefined {
  const segments = file.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}

/** Best-effort line of `raw` in the file: the first occurrence of the link's source text. */
function lineOf(source: LinkSource, raw: string): number | undefined {
  const at = source.body.indexOf(raw);
  if (at === -1) return undefined;
  let line = source.bodyLine;
  for (let i = source.body.indexOf('\n'); i !== -1 && i < at; i = source.body.indexOf('\n', i + 1)) line++;
  return line;
}

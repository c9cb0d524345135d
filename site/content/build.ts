/**
 * Builds the site's content once, at start-up: places every file (`paths.ts`), parses its front
 * matter, renders its Markdown with links rewritten and checked (`links.ts`), and orders the pages
 * into sections and a reading order. Any problem throws a `ContentError` naming the file (and line),
 * so a broken page stops the site from starting instead of being served.
 */
import { ContentError } from './content-error.ts';
import { parseFrontMatter } from './front-matter.ts';
import { checkFragments, type InternalLink, type LinkIndex, linkRewriter } from './links.ts';
import { renderMarkdown } from './markdown.ts';
import { compareSections, type PagePlace, placeFile, sectionTitle } from './paths.ts';
import { assembleContent } from './prebuilt.ts';
import type { ContentEntry, ContentSite, NavSection, Page } from './types.ts';

/**
 * Parses and renders `entries` (every file of `content/`) into the site's pages, sections and
 * reading order. Throws `ContentError` on a misplaced or misnamed file, a duplicate path, a missing
 * `index.md`, bad front matter, or a broken link.
 */
export function buildContent(entries: readonly ContentEntry[]): ContentSite {
  const places = placeAll(entries);
  const index = linkIndex(places);
  const found: InternalLink[] = [];
  const idsByPath = new Map<string, ReadonlySet<string>>();
  const drafts = entries.map((entry) => {
    const place = index.byFile.get(entry.file) as PagePlace;
    const { frontMatter, body, bodyLine } = parseFrontMatter(entry.text, entry.file);
    const rewriteHref = linkRewriter(index, { place, body, bodyLine }, found);
    const rendered = renderMarkdown(body, { rewriteHref });
    idsByPath.set(place.path, rendered.ids);
    return {
      ...frontMatter,
      path: place.path,
      url: place.url,
      markdownUrl: place.markdownUrl,
      section: place.section,
      markdown: body,
      html: rendered.html,
      text: rendered.text,
      headings: Object.freeze([...rendered.headings]),
    };
  });
  checkFragments(found, idsByPath);

  const sectionIds = [...new Set(drafts.map((draft) => draft.section))].sort(compareSections);
  const ordered = sectionIds.map((id) => ({
    id,
    pages: drafts.filter((draft) => draft.section === id).sort(comparePages),
  }));
  const reading = ordered.flatMap((section) => section.pages);
  const pages: Page[] = reading.map((draft, position) =>
    Object.freeze({
      ...draft,
      previous: reading[position - 1]?.path,
      next: reading[position + 1]?.path,
    }),
  );
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const sections: NavSection[] = ordered.map((section) =>
    Object.freeze({
      id: section.id,
      title: sectionTitle(section.id),
      pages: Object.freeze(section.pages.map((draft) => byPath.get(draft.path) as Page)),
    }),
  );
  return assembleContent(pages, sections);
}

/** Places every file, rejecting duplicates and sections (or a site) without an `index.md`. */
function placeAll(entries: readonly ContentEntry[]): PagePlace[] {
  const byPath = new Map<string, PagePlace>();
  const files = new Set<string>();
  for (const entry of entries) {
    if (files.has(entry.file)) throw new ContentError(entry.file, undefined, 'the file is listed twice');
    files.add(entry.file);
    const place = placeFile(entry.file);
    const other = byPath.get(place.path);
    if (other !== undefined) {
      throw new ContentError(
        entry.file,
        undefined,
        `duplicate page path '${place.path}': ${other.file} has the same URL ${place.url}`,
      );
    }
    byPath.set(place.path, place);
  }
  if (!files.has('index.md')) {
    throw new ContentError('index.md', undefined, 'missing index.md: the home page (/) is required');
  }
  for (const place of byPath.values()) {
    if (place.section !== '' && !files.has(`${place.section}/index.md`)) {
      throw new ContentError(
        `${place.section}/index.md`,
        undefined,
        `missing index.md: the section '${place.section}' needs one for its URL /${place.section}`,
      );
    }
  }
  return [...byPath.values()];
}

function linkIndex(places: readonly PagePlace[]): LinkIndex {
  const byUrl = new Map<string, PagePlace>();
  for (const place of places) {
    byUrl.set(place.url, place);
    byUrl.set(place.markdownUrl, place);
  }
  return {
    byFile: new Map(places.map((place) => [place.file, place])),
    byUrl,
    sections: new Set(places.map((place) => place.section).filter((section) => section !== '')),
  };
}

/** Navigation order among siblings: `order` ascending, then title, then path (for stability). */
function comparePages(a: { order: number; title: string; path: string }, b: typeof a): number {
  return a.order - b.order || compareStrings(a.title, b.title) || compareStrings(a.path, b.path);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The built content as plain data, and back. `bun run site:compile` builds the content when it
 * compiles (`buildContent`: front matter, Markdown, highlighting, link checks) and embeds the
 * result as a JavaScript literal (`contentData`); the executable only turns that literal back into
 * a `ContentSite` (`contentFromData`), without loading the Markdown renderer. Both ways end in
 * `assembleContent`, so the site serves the same pages either way.
 */
import type { ContentSite, NavSection, Page } from './types.ts';

/** A page as plain data: every field of `Page` (`previous` and `next` may be left out when undefined). */
export type PageData = Omit<Page, 'previous' | 'next'> & {
  readonly previous?: string;
  readonly next?: string;
};

/** The built content as plain data (JSON-safe): pages in reading order, sections by page index. */
export interface ContentData {
  readonly pages: readonly PageData[];
  readonly sections: readonly {
    readonly id: string;
    readonly title: string;
    /** Indexes into `pages`. */
    readonly pages: readonly number[];
  }[];
}

/** The content as plain data, for `contentFromData` (JSON.stringify it to embed it). */
export function contentData(site: ContentSite): ContentData {
  const position = new Map(site.pages.map((page, index) => [page, index]));
  return {
    pages: site.pages.map((page) => ({ ...page })),
    sections: site.sections.map((section) => ({
      id: section.id,
      title: section.title,
      pages: section.pages.map((page) => position.get(page) as number),
    })),
  };
}

/** The `ContentSite` that `contentData` was made from (equal field by field, frozen the same way). */
export function contentFromData(data: ContentData): ContentSite {
  // Field by field, in the order `buildContent` writes them.
  const pages = data.pages.map(
    (page): Page =>
      Object.freeze({
        title: page.title,
        description: page.description,
        order: page.order,
        path: page.path,
        url: page.url,
        markdownUrl: page.markdownUrl,
        section: page.section,
        markdown: page.markdown,
        html: page.html,
        text: page.text,
        headings: Object.freeze([...page.headings]),
        previous: page.previous,
        next: page.next,
      }),
  );
  const sections = data.sections.map(
    (section): NavSection =>
      Object.freeze({
        id: section.id,
        title: section.title,
        pages: Object.freeze(section.pages.map((index) => pages[index] as Page)),
      }),
  );
  return assembleContent(pages, sections);
}

/** The `ContentSite` over pages in reading order and the sections that list them. */
export function assembleContent(pages: readonly Page[], sections: readonly NavSection[]): ContentSite {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  return Object.freeze({
    pages: Object.freeze([...pages]),
    sections: Object.freeze([...sections]),
    byPath: (path: string) => byPath.get(path),
    byUrl: (url: string) => byUrl.get(url),
  });
}

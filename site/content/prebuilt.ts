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
  return assembleContent(pages, sectionsOf(data.sections, pages));
}

/**
 * A page's text and headings: the bulk of the content, which the executable reads only when a page
 * needs it. The headings (some 1,700 objects and 3,400 strings for 85 pages) are here too: the
 * start-up and the first page read none of them, and built at start they were most of the live heap
 * that the first garbage collection walks (issue 18, item 6).
 */
export type PageBody = Pick<Page, 'markdown' | 'html' | 'text' | 'headings'>;

/** The built content as the executable holds it: `ContentData` with each page's text and headings left out. */
export interface ContentIndexData {
  readonly pages: readonly Omit<PageData, keyof PageBody>[];
  readonly sections: ContentData['sections'];
}

/**
 * The source of the module that `bun run site:compile` puts in place of `embedded.ts`: the index as
 * a literal, and each page's text as a literal inside a function of its own. JavaScriptCore makes a
 * function's constants when the function first runs, so the executable starts without building the
 * strings of the ~85 pages (megabytes): a page's text is made the first time something reads it.
 */
export function embeddedContentModule(
  data: ContentData,
  templates: readonly (readonly string[] | undefined)[] = [],
): string {
  const index: ContentIndexData = {
    pages: data.pages.map(({ markdown: _m, html: _h, text: _t, headings: _s, ...rest }) => rest),
    sections: data.sections,
  };
  // A JSON text is a JavaScript expression.
  const bodies = data.pages.map(
    (page) =>
      `() => (${JSON.stringify({ markdown: page.markdown, html: page.html, text: page.text, headings: page.headings })})`,
  );
  // Each document template in a function of its own too (null: rendered at run time).
  const documents = data.pages.map((_, i) => {
    const parts = templates[i];
    return parts === undefined ? 'null' : `() => ${JSON.stringify(parts)}`;
  });
  return [
    "import { contentFromIndex } from './prebuilt.ts';",
    'export const EMBEDDED = true;',
    `const INDEX = ${JSON.stringify(index)};`,
    `const BODIES = [\n${bodies.join(',\n')}\n];`,
    `const DOCUMENTS = [\n${documents.join(',\n')}\n];`,
    'export async function loadContent() { return contentFromIndex(INDEX, BODIES, DOCUMENTS); }',
    '',
  ].join('\n');
}

/**
 * The `ContentSite` of `embeddedContentModule`: as `contentFromData` gives, except that `markdown`,
 * `html`, `text` and `headings` are read-only accessors that call the page's body function once, on
 * first read.
 */
export function contentFromIndex(
  index: ContentIndexData,
  bodies: readonly (() => PageBody)[],
  documents: readonly ((() => readonly string[]) | null)[] = [],
): ContentSite {
  if (bodies.length !== index.pages.length) {
    throw new TypeError(`contentFromIndex: ${index.pages.length} pages but ${bodies.length} bodies`);
  }
  const pages = index.pages.map((page, position): Page => {
    let body: PageBody | undefined;
    const read = (): PageBody => {
      if (body === undefined) {
        const made = (bodies[position] as () => PageBody)();
        body = {
          markdown: made.markdown,
          html: made.html,
          text: made.text,
          headings: Object.freeze([...made.headings]),
        };
      }
      return body;
    };
    // Field by field, in the order `buildContent` writes them; a literal with accessors (JavaScriptCore
    // builds it far faster than Object.defineProperties would).
    const lazy: Page = {
      title: page.title,
      description: page.description,
      order: page.order,
      path: page.path,
      url: page.url,
      markdownUrl: page.markdownUrl,
      section: page.section,
      get markdown() {
        return read().markdown;
      },
      get html() {
        return read().html;
      },
      get text() {
        return read().text;
      },
      get headings() {
        return read().headings;
      },
      previous: page.previous,
      next: page.next,
    };
    return Object.freeze(lazy);
  });
  const templates = new Map<string, () => readonly string[]>();
  for (const [position, page] of index.pages.entries()) {
    const document = documents[position];
    if (typeof document === 'function') templates.set(page.path, document);
  }
  return assembleContent(pages, sectionsOf(index.sections, pages), (path) => templates.get(path)?.());
}

/** The sections of `data`, listing the page objects at their indexes. */
function sectionsOf(data: ContentData['sections'], pages: readonly Page[]): NavSection[] {
  return data.map(
    (section): NavSection =>
      Object.freeze({
        id: section.id,
        title: section.title,
        pages: Object.freeze(section.pages.map((index) => pages[index] as Page)),
      }),
  );
}

/** The `ContentSite` over pages in reading order and the sections that list them. */
export function assembleContent(
  pages: readonly Page[],
  sections: readonly NavSection[],
  documentTemplate?: (path: string) => readonly string[] | undefined,
): ContentSite {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  return Object.freeze({
    pages: Object.freeze([...pages]),
    sections: Object.freeze([...sections]),
    byPath: (path: string) => byPath.get(path),
    byUrl: (url: string) => byUrl.get(url),
    ...(documentTemplate !== undefined && { documentTemplate }),
  });
}

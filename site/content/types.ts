/**
 * The documentation content as the site serves it: every Markdown file of `content/`, parsed and
 * rendered once, at start-up (or, for the compiled executable, when it is compiled: see
 * `prebuilt.ts`). Pages are addressed three ways:
 *
 * | file                         | path               | url                     | markdownUrl                  |
 * | ---------------------------- | ------------------ | ----------------------- | ---------------------------- |
 * | content/index.md             | index              | /                       | /index.md                    |
 * | content/docs/index.md        | docs               | /docs                   | /docs.md                     |
 * | content/docs/jwt.md          | docs/jwt           | /docs/jwt               | /docs/jwt.md                 |
 * | content/errors/not-found.md  | errors/not-found   | /errors/not-found       | /errors/not-found.md         |
 *
 * and `/md/<path>` serves the same Markdown as `markdownUrl`.
 */

/** One file of `content/`, as read from disk or from the bundle embedded in the executable. */
export interface ContentEntry {
  /** Path relative to `content/`, `/`-separated, with the `.md` extension: `docs/jwt.md`. */
  readonly file: string;
  /** The file's text (UTF-8), front matter included. */
  readonly text: string;
}

/** The front matter every page declares. */
export interface FrontMatter {
  readonly title: string;
  /** One sentence: the page's meta description, its line in `/llms.txt` and in search results. */
  readonly description: string;
  /** Position among its siblings in the navigation (ascending; ties by title). */
  readonly order: number;
}

/** An `h2`/`h3` of a page, for its table of contents. */
export interface PageHeading {
  readonly depth: 2 | 3;
  /** Plain text of the heading. */
  readonly text: string;
  /** The `id` attribute of the rendered heading (unique within the page). */
  readonly id: string;
}

/** One rendered page. */
export interface Page extends FrontMatter {
  /** `index`, `docs`, `docs/jwt`, `errors/not-found` (see the table above). */
  readonly path: string;
  /** Canonical URL path: `/`, `/docs`, `/docs/jwt`. */
  readonly url: string;
  /** The canonical URL plus `.md` (`/index.md` for the home page). */
  readonly markdownUrl: string;
  /** First path segment (`docs`, `errors`), or `''` for top-level pages. */
  readonly section: string;
  /** The Markdown without its front matter: what the Markdown surfaces serve. */
  readonly markdown: string;
  /** The article body rendered to HTML (sanitised; code highlighted). No layout around it. */
  readonly html: string;
  /** Plain text of the page (no markup), for full-text search. */
  readonly text: string;
  readonly headings: readonly PageHeading[];
  /** Previous and next pages in reading order (`ContentSite.pages`), by path. */
  readonly previous: string | undefined;
  readonly next: string | undefined;
}

/** A section of the navigation tree: its pages in order. */
export interface NavSection {
  /** `''` for top-level pages, else the folder name (`docs`, `errors`). */
  readonly id: string;
  /** Heading shown in the navigation: `Guides`, `Errors`... */
  readonly title: string;
  readonly pages: readonly Page[];
}

/** All the content, loaded and rendered. */
export interface ContentSite {
  /** Every page in reading order: top-level, then each section's pages in navigation order. */
  readonly pages: readonly Page[];
  readonly sections: readonly NavSection[];
  /** The page at a path (`docs/jwt`), or undefined. */
  byPath(path: string): Page | undefined;
  /** The page at a canonical URL path (`/docs/jwt`), or undefined. */
  byUrl(url: string): Page | undefined;
  /**
   * The page's HTML document rendered when the executable was compiled, cut where the origin goes
   * (`html/document-template.ts`); undefined in source form, or for a page rendered at run time.
   */
  documentTemplate?(path: string): readonly string[] | undefined;
}

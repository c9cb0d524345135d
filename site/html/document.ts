/**
 * Complete HTML documents for the site: one per content page, and the HTML 404 page. The route
 * module serves them with `Content-Security-Policy: PAGE_CSP`.
 */
import { escapeHtml } from '../content/escape.ts';
import { pathSuggestionsOf } from '../content/path-suggestions.ts';
import type { ContentSite, Page } from '../content/types.ts';
import { renderLayout, SITE_NAME } from './layout.ts';
import { renderInlineTableOfContents, renderTableOfContents } from './navigation.ts';
import { editUrl } from './project.ts';

/**
 * The Content-Security-Policy the pages are built for (CSP Level 3): scripts, styles and images
 * from the origin only (images may also be `data:`; the one script also carries an SRI hash), no
 * inline script or style, no `<base>`, forms submit only to the origin (the search box), fetches
 * only to the origin (the box's suggestions), no framing.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** How many nearby pages the HTML 404 suggests (the Markdown 404 lists as many). */
export const NOT_FOUND_SUGGESTIONS = 5;

/**
 * The repository file a reader edits to change `page`: its Markdown under `content/`, the root
 * `CHANGELOG.md` for the changelog, or undefined for pages generated from the package itself
 * (the API reference: its text comes from the doc comments in `packages/`).
 */
export function editableFileOf(page: Page): string | undefined {
  if (page.section === 'reference') return undefined;
  if (page.path === 'changelog') return 'CHANGELOG.md';
  // `paths.ts` in reverse: a section's root page (`docs`) is its folder's index.md.
  if (page.section !== '' && page.path === page.section) return `content/${page.section}/index.md`;
  return `content/${page.path}.md`;
}

/** Options of `renderPageDocument` and `renderNotFoundDocument`. */
export interface DocumentOptions {
  /**
   * The site's public origin (`SITE_ORIGIN`), for the canonical link and Open Graph URL:
   * `https://charter.dev`. Required; a trailing `/` is ignored; it must be an http(s) origin.
   */
  readonly origin: string;
}

/** Options of `renderNotFoundDocument`. */
export interface NotFoundDocumentOptions extends DocumentOptions {
  /** The path that was asked for (shown escaped, cut to 200 characters). */
  readonly path: string;
}

/**
 * The HTML5 document of `page`: title, description, canonical and Markdown alternate links, the
 * navigation (current page marked), the table of contents, the article, previous/next links and the
 * footer.
 */
export function renderPageDocument(site: ContentSite, page: Page, options: DocumentOptions): string {
  const origin = resolveOrigin(options.origin);
  const canonical = `${origin}${page.url}`;
  const title = page.path === 'index' ? `${SITE_NAME}: ${page.title}` : `${page.title} · ${SITE_NAME}`;
  const head = [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<link rel="alternate" type="text/markdown" href="${escapeHtml(page.markdownUrl)}">`,
    '<meta property="og:type" content="article">',
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:title" content="${escapeHtml(page.title)}">`,
    `<meta property="og:description" content="${escapeHtml(page.description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
  ].join('\n');
  // Pages normally open with their own `# Title`; one that does not still gets a heading.
  const heading = page.html.includes('<h1') ? '' : `<h1>${escapeHtml(page.title)}</h1>\n`;
  const file = editableFileOf(page);
  const meta =
    file === undefined
      ? '<p class="page-meta">Generated from the declarations and doc comments of the <code>charter</code> package.</p>'
      : `<p class="page-meta"><a href="${escapeHtml(editUrl(file))}" rel="noopener">Edit this page on GitHub</a></p>`;
  const main = `${renderInlineTableOfContents(page.headings)}<article>
${heading}${page.html}</article>
${meta}
${renderPager(site, page)}`;
  return renderLayout(site, {
    title,
    description: page.description,
    head,
    currentPath: page.path,
    main,
    aside: renderTableOfContents(page.headings),
    footerExtra: `\n<li><a href="${escapeHtml(page.markdownUrl)}" type="text/markdown">This page as Markdown</a></li>`,
  });
}

/**
 * The page path a requested URL path would have named: `/docs/jwtt` and `/docs/jwtt.md` give
 * `docs/jwtt`, `/md/docs/jwtt` too; `/` and `` give `index`.
 */
export function wantedPagePath(requested: string): string {
  const path = requested.replace(/^\/+/, '').replace(/^md\//, '').replace(/\.md$/, '').replace(/\/+$/, '');
  return path === '' ? 'index' : path;
}

/** The words of a path worth searching for: its last segment, `-`, `_` and `.md` read as spaces. */
export function searchWords(path: string): string {
  const last = wantedPagePath(path).split('/').at(-1) ?? '';
  return last
    .replace(/\.md$/, '')
    .replace(/[-_.]+/g, ' ')
    .trim()
    .slice(0, 100);
}

/**
 * The HTML 404 document: says what was not found, lists the pages whose path is closest (as the
 * Markdown 404 does), links home, the search and the Markdown index, keeps the navigation.
 */
export function renderNotFoundDocument(site: ContentSite, options: NotFoundDocumentOptions): string {
  resolveOrigin(options.origin);
  const shown = options.path.length > 200 ? `${options.path.slice(0, 200)}…` : options.path;
  const near = pathSuggestionsOf(site.pages)
    .closest(wantedPagePath(options.path), NOT_FOUND_SUGGESTIONS)
    .map((index) => site.pages[index] as Page);
  const closest =
    near.length === 0
      ? ''
      : `<h2 id="closest-pages">Closest pages</h2>
<ul class="closest-pages">
${near.map((page) => `<li><a href="${escapeHtml(page.url)}">${escapeHtml(page.title)}</a>: ${escapeHtml(page.description)}</li>`).join('\n')}
</ul>
`;
  const main = `<article>
<h1>Page not found</h1>
<p>There is no page at <code>${escapeHtml(shown)}</code>.</p>
${closest}<h2 id="start-here">Start here</h2>
<ul>
<li><a href="/search?q=${encodeURIComponent(searchWords(options.path))}">Search the documentation for <q>${escapeHtml(searchWords(options.path))}</q></a></li>
<li><a href="/">Go to the home page</a></li>
<li><a href="/md/index">Read the home page as Markdown</a></li>
<li><a href="/llms.txt">Read the index for agents (llms.txt)</a></li>
</ul>
<p>The navigation lists every page of the documentation.</p>
</article>`;
  return renderLayout(site, {
    title: `Page not found · ${SITE_NAME}`,
    description: 'No page exists at this address.',
    head: '<meta name="robots" content="noindex">',
    currentPath: undefined,
    main,
    aside: '',
    footerExtra: '',
  });
}

function renderPager(site: ContentSite, page: Page): string {
  const previous = page.previous === undefined ? undefined : site.byPath(page.previous);
  const next = page.next === undefined ? undefined : site.byPath(page.next);
  if (previous === undefined && next === undefined) return '';
  const link = (target: Page, rel: 'prev' | 'next', label: string): string =>
    `<a class="pager-${rel}" rel="${rel}" href="${escapeHtml(target.url)}"><span class="pager-label">${label}</span> <span class="pager-title">${escapeHtml(target.title)}</span></a>`;
  const links = [
    previous === undefined ? '' : link(previous, 'prev', 'Previous'),
    next === undefined ? '' : link(next, 'next', 'Next'),
  ].filter((part) => part !== '');
  return `<nav class="pager" aria-label="Previous and next page">
${links.join('\n')}
</nav>`;
}

/** Validates the `origin` option: an http(s) URL with no path, query or fragment; returns it normalised. */
function resolveOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = typeof origin === 'string' ? new URL(origin) : undefined;
  } catch {
    url = undefined;
  }
  const bare = url !== undefined && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || url.username) {
    throw new TypeError(
      `options.origin must be an http(s) origin such as https://charter.dev, got ${String(origin)}`,
    );
  }
  return url.origin;
}

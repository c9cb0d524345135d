/**
 * The HTML5 shell every page shares: head (title, description, stylesheet, icon, extra links),
 * skip link, header (search box, version, repository, the narrow-screen menu link), the site
 * navigation, `main`, footer, and the one deferred script. No inline script and no `style`
 * attribute, so the pages run under `PAGE_CSP`.
 */
import { escapeHtml } from '../content/escape.ts';
import type { ContentSite } from '../content/types.ts';
import { FAVICON_URL, SCRIPT_INTEGRITY, SCRIPT_URL, STYLESHEET_URL } from './assets.ts';
import { renderSiteNavigation } from './navigation.ts';
import { PACKAGE_VERSION, REPOSITORY_URL } from './project.ts';

/** The site's name, in titles and the header. */
export const SITE_NAME = 'Charter';

/** Longest search query the header's box takes (the search page refuses longer ones). */
export const SEARCH_MAX_LENGTH = 200;

/** Where the changelog page lives. */
export const CHANGELOG_URL = '/changelog';

/** The machine-readable entry points the footer links on every page. */
export const FOOTER_LINKS: readonly { readonly href: string; readonly label: string }[] = [
  { href: '/llms.txt', label: 'llms.txt' },
  { href: '/api/v1', label: 'API index' },
  { href: '/openapi.json', label: 'OpenAPI document' },
  { href: '/md/index', label: 'Home page in Markdown' },
];

/** What a page puts in the shared shell. */
export interface LayoutParts {
  /** Text of `<title>` (escaped here). */
  readonly title: string;
  /** Meta description (escaped here). */
  readonly description: string;
  /** Extra `<head>` elements, already HTML. */
  readonly head: string;
  /** Path of the current page for `aria-current`, if the page is part of the navigation. */
  readonly currentPath: string | undefined;
  /** Content of `<main>`, already HTML. */
  readonly main: string;
  /** Markup after `main` in the grid (the table of contents), already HTML. */
  readonly aside: string;
  /** Extra footer list items, already HTML. */
  readonly footerExtra: string;
  /** The search box's current text (the search page's query); default empty. */
  readonly query?: string;
}

/** The header's search form: a plain GET form, so it works without script. */
export function renderSearchForm(query: string, id: string): string {
  return `<form class="search-form" role="search" action="/search" method="get">
<label class="visually-hidden" for="${id}">Search the documentation</label>
<input id="${id}" type="search" name="q" maxlength="${SEARCH_MAX_LENGTH}" placeholder="Search the docs" value="${escapeHtml(query)}" autocomplete="off" enterkeyhint="search">
<button type="submit">Search</button>
</form>`;
}

/** Wraps `parts` in the complete HTML5 document. */
export function renderLayout(site: ContentSite, parts: LayoutParts): string {
  const footerLinks = FOOTER_LINKS.map((link) => `<li><a href="${link.href}">${link.label}</a></li>`).join(
    '\n',
  );
  const repository = escapeHtml(REPOSITORY_URL);
  const version = escapeHtml(PACKAGE_VERSION);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<meta name="description" content="${escapeHtml(parts.description)}">
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="${STYLESHEET_URL}">
<link rel="icon" type="image/svg+xml" href="${FAVICON_URL}">
<script src="${SCRIPT_URL}" integrity="${SCRIPT_INTEGRITY}" defer></script>
${parts.head}
</head>
<body>
<a class="skip-link" href="#main-content">Skip to content</a>
<header class="site-header">
<a class="brand" href="/">${SITE_NAME}</a>
<a class="version" href="${CHANGELOG_URL}" title="What changed in each release">v${version}</a>
${renderSearchForm(parts.query ?? '', 'site-search')}
<a class="repo-link" href="${repository}" rel="noopener">GitHub</a>
<a class="menu-link" href="#site-navigation">Menu</a>
</header>
<div class="page">
${renderSiteNavigation(site, parts.currentPath)}
<main id="main-content" tabindex="-1">
${parts.main}
</main>
${parts.aside}
</div>
<footer class="site-footer">
<nav aria-label="Project">
<ul>
<li>Charter <a href="${CHANGELOG_URL}">v${version}</a></li>
<li><a href="${repository}" rel="noopener">Source on GitHub</a></li>
<li><a href="${CHANGELOG_URL}">Changelog</a></li>
<li><a href="/reference">API reference</a></li>
</ul>
</nav>
<nav aria-label="Machine-readable">
<ul>
${footerLinks}${parts.footerExtra}
</ul>
</nav>
<p>Every page is also Markdown: add <code>.md</code> to its URL or send <code>Accept: text/markdown</code>.</p>
</footer>
</body>
</html>
`;
}

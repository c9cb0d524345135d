/**
 * The HTML5 shell every page shares: head (title, description, stylesheet, icon, extra links),
 * skip link, header, the site navigation, `main`, footer. No script and no `style` attribute, so the
 * pages run under `PAGE_CSP`.
 */
import { escapeHtml } from '../content/escape.ts';
import type { ContentSite } from '../content/types.ts';
import { FAVICON_URL, STYLESHEET_URL } from './assets.ts';
import { renderSiteNavigation } from './navigation.ts';

/** The site's name, in titles and the header. */
export const SITE_NAME = 'Charter';

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
}

/** Wraps `parts` in the complete HTML5 document. */
export function renderLayout(site: ContentSite, parts: LayoutParts): string {
  const footerLinks = FOOTER_LINKS.map((link) => `<li><a href="${link.href}">${link.label}</a></li>`).join(
    '\n',
  );
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
${parts.head}
</head>
<body>
<a class="skip-link" href="#main-content">Skip to content</a>
<header class="site-header">
<a class="brand" href="/">${SITE_NAME}</a>
<p class="tagline">Contract-first TypeScript web framework</p>
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

/**
 * The two navigation blocks of a page: the site tree (every section and page, the current page
 * marked with `aria-current="page"`, WAI-ARIA 1.2 §6.7) and the page's table of contents.
 */
import { escapeHtml } from '../content/escape.ts';
import type { ContentSite, PageHeading } from '../content/types.ts';

/**
 * Sections folded in the sidebar (`details`) unless the current page is in them: the API reference
 * has a page per subpath, which would push the guides out of sight.
 */
export const FOLDED_SECTIONS: ReadonlySet<string> = new Set(['reference']);

/** The sidebar: every section under its title, and its pages in navigation order. */
export function renderSiteNavigation(site: ContentSite, currentPath: string | undefined): string {
  const sections = site.sections.map((section) => {
    const items = section.pages.map((page) => {
      const current = page.path === currentPath ? ' aria-current="page"' : '';
      return `<li><a href="${escapeHtml(page.url)}"${current}>${escapeHtml(page.title)}</a></li>`;
    });
    if (FOLDED_SECTIONS.has(section.id)) {
      const open = section.pages.some((page) => page.path === currentPath) ? ' open' : '';
      return `<details class="nav-section"${open}>
<summary class="nav-title">${escapeHtml(section.title)} (${section.pages.length})</summary>
<ul>
${items.join('\n')}
</ul>
</details>`;
    }
    return `<section class="nav-section">
<h2 class="nav-title">${escapeHtml(section.title)}</h2>
<ul>
${items.join('\n')}
</ul>
</section>`;
  });
  // On a narrow screen the navigation is hidden until the header's "Menu" link targets it (CSS
  // `:target`, no script); "Close menu" moves the target away again.
  return `<nav id="site-navigation" class="sidebar" aria-label="Documentation">
<a class="menu-close" href="#main-content">Close menu</a>
${sections.join('\n')}
</nav>`;
}

/** The table of contents' list: h2 entries with their h3 entries nested. */
function tableOfContentsList(headings: readonly PageHeading[]): string {
  const groups: { heading: PageHeading; children: PageHeading[] }[] = [];
  for (const heading of headings) {
    const last = groups.at(-1);
    if (heading.depth === 3 && last?.heading.depth === 2) last.children.push(heading);
    else groups.push({ heading, children: [] });
  }
  const link = (heading: PageHeading): string =>
    `<a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.text)}</a>`;
  const items = groups.map(({ heading, children }) => {
    const nested =
      children.length === 0
        ? ''
        : `\n<ol>\n${children.map((child) => `<li>${link(child)}</li>`).join('\n')}\n</ol>`;
    return `<li>${link(heading)}${nested}</li>`;
  });
  return `<ol>
${items.join('\n')}
</ol>`;
}

/** The table of contents beside the article on wide screens; empty when the page has no h2/h3. */
export function renderTableOfContents(headings: readonly PageHeading[]): string {
  if (headings.length === 0) return '';
  return `<aside class="toc">
<nav id="table-of-contents" aria-label="On this page">
<h2 class="toc-title">On this page</h2>
${tableOfContentsList(headings)}
</nav>
</aside>`;
}

/**
 * The same table of contents above the article, folded (`details`), for screens too narrow for
 * the column beside it; the stylesheet shows one or the other.
 */
export function renderInlineTableOfContents(headings: readonly PageHeading[]): string {
  if (headings.length === 0) return '';
  return `<details class="toc-inline">
<summary>On this page</summary>
<nav aria-label="On this page (folded)">
${tableOfContentsList(headings)}
</nav>
</details>
`;
}

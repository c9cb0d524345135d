import { describe, expect, test } from 'bun:test';
import { buildContent } from '../content/build.ts';
import type { ContentEntry } from '../content/types.ts';
import { FAVICON_URL, SCRIPT_INTEGRITY, SCRIPT_URL, STYLESHEET_URL } from './assets.ts';
import {
  editableFileOf,
  PAGE_CSP,
  renderNotFoundDocument,
  renderPageDocument,
  searchWords,
  wantedPagePath,
} from './document.ts';
import { PACKAGE_VERSION, REPOSITORY_URL, repositoryUrlOf } from './project.ts';

const HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

/** The one script tag a page may hold: the site's, by URL, with its SRI hash. */
const SITE_SCRIPT = `<script src="${SCRIPT_URL}" integrity="${SCRIPT_INTEGRITY}" defer></script>`;

/** The page without the site's own script tag. */
const withoutSiteScript = (html: string): string => html.replace(SITE_SCRIPT, '');

function page(
  file: string,
  title: string,
  order: number,
  body: string,
  description = `About ${title}.`,
): ContentEntry {
  const quoted = JSON.stringify(title);
  return {
    file,
    text: `---\ntitle: ${quoted}\ndescription: ${JSON.stringify(description)}\norder: ${order}\n---\n\n${body}`,
  };
}

const site = buildContent([
  page('index.md', 'Getting started', 1, '# Getting started\n\n## Install\n\nText.\n'),
  page('docs/index.md', 'Guides', 0, '# Guides\n\nAll guides.\n'),
  page(
    'docs/jwt.md',
    'JSON Web Tokens',
    1,
    '# JSON Web Tokens\n\n## Verify\n\n### Keys\n\n### Claims\n\n## Sign\n\nSee [home](../index.md#install).\n',
  ),
  page('docs/hostile.md', HOSTILE, 2, 'No heading here. <script>alert(3)</script>\n', HOSTILE),
  page('errors/index.md', 'Errors', 0, '# Errors\n'),
]);

const ORIGIN = 'https://charter.dev';
const render = (path: string): string => {
  const found = site.byPath(path);
  if (found === undefined) throw new Error(`no page ${path}`);
  return renderPageDocument(site, found, { origin: ORIGIN });
};

/** Every opening tag of `name` in `html`. */
const tags = (html: string, name: string): string[] =>
  [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0]);

/** Names of every attribute of every tag (values are always double-quoted by the renderers). */
function attributeNames(html: string): string[] {
  const names: string[] = [];
  // Renderers escape `>` in attribute values, so a tag ends at the first `>`.
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    for (const attribute of tag[0].matchAll(/\s([a-zA-Z:-]+)(?:="[^"]*")?/g)) names.push(attribute[1] ?? '');
  }
  return names;
}

describe('renderPageDocument', () => {
  test('is a complete HTML5 document in English with title, description and viewport', () => {
    const html = render('docs/jwt');
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>JSON Web Tokens · Charter</title>');
    expect(html).toContain('<meta name="description" content="About JSON Web Tokens.">');
    expect(render('index')).toContain('<title>Charter: Getting started</title>');
  });

  test('links the canonical URL on the origin, the Markdown alternate, the stylesheet and the icon', () => {
    const html = render('docs/jwt');
    expect(html).toContain('<link rel="canonical" href="https://charter.dev/docs/jwt">');
    expect(html).toContain('<link rel="alternate" type="text/markdown" href="/docs/jwt.md">');
    expect(html).toContain(`<link rel="stylesheet" href="${STYLESHEET_URL}">`);
    expect(html).toContain(`<link rel="icon" type="image/svg+xml" href="${FAVICON_URL}">`);
    expect(render('index')).toContain('<link rel="canonical" href="https://charter.dev/">');
    expect(render('index')).toContain('<link rel="alternate" type="text/markdown" href="/index.md">');
  });

  test('normalises the origin and refuses one that is not a bare http(s) origin', () => {
    const found = site.byPath('docs/jwt');
    if (found === undefined) throw new Error('missing page');
    expect(renderPageDocument(site, found, { origin: 'http://localhost:3000/' })).toContain(
      'href="http://localhost:3000/docs/jwt"',
    );
    for (const origin of [
      '',
      'charter.dev',
      'ftp://x',
      'https://x/docs',
      'https://x/?a',
      'javascript:alert(1)',
    ]) {
      expect(() => renderPageDocument(site, found, { origin })).toThrow(TypeError);
    }
  });

  test('has the landmarks, a skip link to main and one main element', () => {
    const html = render('docs/jwt');
    expect(html).toContain('<a class="skip-link" href="#main-content">Skip to content</a>');
    expect(tags(html, 'main')).toEqual(['<main id="main-content" tabindex="-1">']);
    expect(tags(html, 'header')).toHaveLength(1);
    expect(tags(html, 'footer')).toHaveLength(1);
    expect(html).toContain('<nav id="site-navigation" class="sidebar" aria-label="Documentation">');
    expect(html.indexOf('class="skip-link"')).toBeLessThan(html.indexOf('<header'));
    expect(html).toContain('<a class="menu-link" href="#site-navigation">Menu</a>');
  });

  test('lists every section and page in the navigation and marks only the current page', () => {
    const html = render('docs/jwt');
    for (const section of site.sections)
      expect(html).toContain(`<h2 class="nav-title">${section.title}</h2>`);
    for (const entry of site.pages) expect(html).toContain(`<a href="${entry.url}"`);
    expect(tags(html, 'a').filter((tag) => tag.includes('aria-current'))).toEqual([
      '<a href="/docs/jwt" aria-current="page">',
    ]);
  });

  test('renders the table of contents from h2 and h3, nested', () => {
    const html = render('docs/jwt');
    expect(html).toContain(`<nav id="table-of-contents" aria-label="On this page">
<h2 class="toc-title">On this page</h2>
<ol>
<li><a href="#verify">Verify</a>
<ol>
<li><a href="#keys">Keys</a></li>
<li><a href="#claims">Claims</a></li>
</ol></li>
<li><a href="#sign">Sign</a></li>
</ol>`);
    expect(render('docs')).not.toContain('table-of-contents');
  });

  test('contains the article with rewritten links, and previous/next links', () => {
    const html = render('docs/jwt');
    expect(html).toContain('<article>\n<h1 id="json-web-tokens">');
    expect(html).toContain('<a href="/#install">home</a>');
    expect(html).toContain(
      '<a class="pager-prev" rel="prev" href="/docs"><span class="pager-label">Previous</span> <span class="pager-title">Guides</span></a>',
    );
    expect(html).toContain('<a class="pager-next" rel="next" href="/docs/hostile">');
    expect(render('index')).not.toContain('rel="prev"');
    expect(render('errors')).not.toContain('rel="next"');
  });

  test('links the machine-readable entry points and the page Markdown in the footer', () => {
    const footer = render('docs/jwt').split('<footer')[1] ?? '';
    for (const href of ['/llms.txt', '/api/v1', '/openapi.json', '/md/index', '/docs/jwt.md']) {
      expect(footer).toContain(`<a href="${href}"`);
    }
  });

  test('escapes a hostile title and description everywhere they appear', () => {
    const html = render('docs/hostile');
    expect(withoutSiteScript(html)).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<meta name="description" content="&quot;&gt;&lt;script&gt;');
    expect(html).toContain('<h1>&quot;&gt;&lt;script&gt;');
    expect(render('docs/jwt')).toContain('<span class="pager-title">&quot;&gt;&lt;script&gt;');
  });

  test('has only the site script, no inline style and no event handler attribute on any page', () => {
    for (const entry of site.pages) {
      const html = renderPageDocument(site, entry, { origin: ORIGIN });
      expect(html).toContain(SITE_SCRIPT);
      expect(withoutSiteScript(html)).not.toContain('<script');
      expect(html).not.toContain('<style');
      const names = attributeNames(html);
      expect(names).toContain('href');
      expect(names.filter((name) => name === 'style' || name.startsWith('on'))).toEqual([]);
    }
  });
});

describe('renderNotFoundDocument', () => {
  test('says what was not found, links home and keeps the navigation, with no current page', () => {
    const html = renderNotFoundDocument(site, { origin: ORIGIN, path: '/docs/nope' });
    expect(html).toContain('<title>Page not found · Charter</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).toContain('<code>/docs/nope</code>');
    expect(html).toContain('<a href="/">Go to the home page</a>');
    expect(html).toContain('<nav id="site-navigation"');
    expect(html).not.toContain('aria-current');
    expect(html).not.toContain('rel="canonical"');
    expect(tags(html, 'main')).toHaveLength(1);
  });

  test('escapes the requested path and cuts a long one', () => {
    const html = renderNotFoundDocument(site, { origin: ORIGIN, path: `/${HOSTILE}${'a'.repeat(500)}` });
    expect(withoutSiteScript(html)).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('a…</code>');
    expect(html).not.toContain('a'.repeat(300));
  });

  test('refuses a bad origin', () => {
    expect(() => renderNotFoundDocument(site, { origin: 'nope', path: '/' })).toThrow(TypeError);
  });
});

describe('PAGE_CSP', () => {
  test('allows same-origin scripts, styles and fetches only, nothing inline, forms only to the origin', () => {
    expect(PAGE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(PAGE_CSP).not.toContain('unsafe');
  });
});

describe('the project parts of every page', () => {
  test('the header has a GET search form, the version and the repository link', () => {
    const html = render('docs/jwt');
    expect(html).toContain('<form class="search-form" role="search" action="/search" method="get">');
    expect(html).toContain('<input id="site-search" type="search" name="q" maxlength="200"');
    expect(html).toContain(
      `<a class="version" href="/changelog" title="What changed in each release">v${PACKAGE_VERSION}</a>`,
    );
    expect(html).toContain(`<a class="repo-link" href="${REPOSITORY_URL}" rel="noopener">GitHub</a>`);
    expect(html).toContain(`<li><a href="${REPOSITORY_URL}" rel="noopener">Source on GitHub</a></li>`);
  });

  test('a page links the file to edit on GitHub', () => {
    expect(render('docs/jwt')).toContain(`href="${REPOSITORY_URL}/edit/main/content/docs/jwt.md"`);
    expect(render('docs')).toContain(`href="${REPOSITORY_URL}/edit/main/content/docs/index.md"`);
    expect(render('index')).toContain(`href="${REPOSITORY_URL}/edit/main/content/index.md"`);
  });

  test('the table of contents is also folded above the article, for narrow screens', () => {
    const html = render('docs/jwt');
    expect(html).toContain('<details class="toc-inline">\n<summary>On this page</summary>');
    expect(html.indexOf('<details class="toc-inline">')).toBeLessThan(html.indexOf('<article>'));
    expect(render('docs')).not.toContain('toc-inline');
  });

  test('the navigation has a close link for the narrow-screen menu', () => {
    expect(render('docs/jwt')).toContain('<a class="menu-close" href="#main-content">Close menu</a>');
    expect(render('docs/jwt')).toContain('<a class="menu-link" href="#site-navigation">Menu</a>');
  });
});

describe('editableFileOf', () => {
  const at = (path: string) => site.byPath(path)!;
  test('maps a page back to its content file, the changelog to CHANGELOG.md, the reference to none', () => {
    expect(editableFileOf(at('docs/jwt'))).toBe('content/docs/jwt.md');
    expect(editableFileOf(at('errors'))).toBe('content/errors/index.md');
    expect(editableFileOf({ ...at('index'), path: 'changelog' })).toBe('CHANGELOG.md');
    expect(
      editableFileOf({ ...at('docs/jwt'), section: 'reference', path: 'reference/jwt' }),
    ).toBeUndefined();
  });
});

describe('the HTML 404 page', () => {
  test('lists the closest pages, linked by their HTML URL, as the Markdown 404 does', () => {
    const html = renderNotFoundDocument(site, { origin: ORIGIN, path: '/docs/jwtt' });
    expect(html).toContain('<h2 id="closest-pages">Closest pages</h2>');
    const start = html.indexOf('<ul class="closest-pages">');
    const list = html.slice(start, html.indexOf('</ul>', start));
    expect(list).toStartWith(
      '<ul class="closest-pages">\n<li><a href="/docs/jwt">JSON Web Tokens</a>: About JSON Web Tokens.</li>',
    );
    expect(list.match(/<li>/g)!.length).toBeLessThanOrEqual(5);
    expect(html).toContain('<a href="/search?q=jwtt">Search the documentation for <q>jwtt</q></a>');
  });

  test('offers to search for the words of the missing path, escaped', () => {
    expect(searchWords('/docs/rate-limit.md')).toBe('rate limit');
    const html = renderNotFoundDocument(site, { origin: ORIGIN, path: '/docs/<b>x"y' });
    expect(html).toContain('href="/search?q=%3Cb%3Ex%22y"');
    expect(html).toContain('<q>&lt;b&gt;x&quot;y</q>');
  });

  test('reads the page path out of .md and /md/ URLs', () => {
    expect(wantedPagePath('/docs/jwtt.md')).toBe('docs/jwtt');
    expect(wantedPagePath('/md/docs/jwtt')).toBe('docs/jwtt');
    expect(wantedPagePath('/')).toBe('index');
    expect(wantedPagePath('/docs/')).toBe('docs');
  });
});

describe('repositoryUrlOf', () => {
  test('reads the GitHub forms of a package.json repository field', () => {
    expect(repositoryUrlOf('https://github.com/acme/charter')).toBe('https://github.com/acme/charter');
    expect(repositoryUrlOf({ type: 'git', url: 'git+https://github.com/acme/charter.git' })).toBe(
      'https://github.com/acme/charter',
    );
    expect(repositoryUrlOf('github:acme/charter')).toBe('https://github.com/acme/charter');
  });

  test('refuses a missing, foreign or placeholder value', () => {
    expect(repositoryUrlOf(undefined)).toBeUndefined();
    expect(repositoryUrlOf({})).toBeUndefined();
    expect(repositoryUrlOf('https://gitlab.com/acme/charter')).toBeUndefined();
    expect(repositoryUrlOf('https://github.com/OWNER/charter')).toBeUndefined();
    expect(repositoryUrlOf('https://github.com/<owner>/charter')).toBeUndefined();
    expect(repositoryUrlOf('javascript:alert(1)')).toBeUndefined();
  });
});

describe('the folded reference section of the navigation', () => {
  const withReference = buildContent([
    page('index.md', 'Home', 1, '# Home\n'),
    page('docs/index.md', 'Guides', 0, '# Guides\n'),
    page('reference/index.md', 'API reference', 0, '# API reference\n'),
    page('reference/jwt.md', 'charter/jwt', 1, '# charter/jwt\n'),
  ]);
  const at = (path: string) =>
    renderPageDocument(withReference, withReference.byPath(path)!, { origin: ORIGIN });

  test('is folded on other pages, open on its own, and lists its pages either way', () => {
    expect(at('docs')).toContain(
      '<details class="nav-section">\n<summary class="nav-title">Reference (2)</summary>',
    );
    expect(at('reference/jwt')).toContain('<details class="nav-section" open>');
    expect(at('docs')).toContain('<li><a href="/reference/jwt">charter/jwt</a></li>');
    expect(at('docs')).toContain('<section class="nav-section">\n<h2 class="nav-title">Guides</h2>');
  });
});

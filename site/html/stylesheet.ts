/**
 * The site's one stylesheet, kept in a module so the compiled executable embeds it (no file access
 * at run time). Served from `/assets/site.<hash8>.css` by `SITE_ASSETS`. It relies on nothing inline:
 * the pages run under `style-src 'self'` with no `style` attributes.
 */

/** The CSS of every page: layout, typography, navigation, code and token colours, dark mode. */
export const SITE_CSS = `/* Charter documentation site */

:root {
  color-scheme: light dark;
  --font-body: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
  --font-code: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  /* Prose lines stay near 75 characters; code blocks and tables may use the whole column. */
  --measure: 46rem;
  /* Wide enough for a 100-column code block (0.875em monospace, padding and border included). */
  --column: 58rem;
  --sidebar: 15rem;
  --toc: 13rem;
  --radius: 6px;

  --bg: #ffffff;
  --bg-subtle: #f6f7f9;
  --text: #1b1f24;
  --muted: #59636e;
  --border: #dde1e6;
  --accent: #2f5bd3;
  --accent-text: #ffffff;
  --current-bg: #e8eefc;
  --code-bg: #f5f7fa;
  --focus: #2f5bd3;
  --mark-bg: #fff1a8;

  --tok-keyword: #a3228d;
  --tok-string: #0f7a3d;
  --tok-number: #b25000;
  --tok-comment: #6a737d;
  --tok-type: #1f5fbf;
  --tok-punctuation: #57606a;
  --tok-property: #8a4b00;
  --tok-variable: #b3261e;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1216;
    --bg-subtle: #161a20;
    --text: #e4e7eb;
    --muted: #9aa4af;
    --border: #2a3039;
    --accent: #86a8ff;
    --accent-text: #0f1216;
    --current-bg: #1d2740;
    --code-bg: #151a21;
    --focus: #86a8ff;
    --mark-bg: #5a4a00;

    --tok-keyword: #e38ad6;
    --tok-string: #7fd49b;
    --tok-number: #f0a45d;
    --tok-comment: #8b949e;
    --tok-type: #79b8ff;
    --tok-punctuation: #a9b1ba;
    --tok-property: #e7b46a;
    --tok-variable: #ff8a80;
  }
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
  scroll-padding-top: 1rem;
}

@media (prefers-reduced-motion: no-preference) {
  html {
    scroll-behavior: smooth;
  }
}

body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font-family: var(--font-body);
  font-size: 1rem;
  line-height: 1.6;
}

a {
  color: var(--accent);
  text-underline-offset: 0.15em;
}

a:hover {
  text-decoration-thickness: 2px;
}

:focus-visible {
  outline: 2px solid var(--focus);
  outline-offset: 2px;
}

/* Skip link: off screen until focused. */
.skip-link {
  position: absolute;
  left: 1rem;
  top: -3rem;
  z-index: 10;
  padding: 0.5rem 1rem;
  border-radius: var(--radius);
  background: var(--accent);
  color: var(--accent-text);
  font-weight: 600;
}

.skip-link:focus {
  top: 1rem;
}

/* Header and footer */
.site-header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1rem;
  padding: 0.6rem 1.5rem;
  border-bottom: 1px solid var(--border);
}

.version {
  padding: 0.05rem 0.45rem;
  border: 1px solid var(--border);
  border-radius: 999px;
  color: var(--muted);
  font-size: 0.8rem;
  text-decoration: none;
}

.repo-link {
  font-size: 0.9rem;
}

.search-form {
  position: relative;
  display: flex;
  flex: 1 1 14rem;
  gap: 0.4rem;
  max-width: 28rem;
  margin-left: auto;
}

.search-form input {
  flex: 1 1 auto;
  min-width: 0;
  padding: 0.35rem 0.6rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--bg);
  color: var(--text);
  font: inherit;
  font-size: 0.95rem;
}

.search-form button,
.copy-button {
  padding: 0.3rem 0.7rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--bg-subtle);
  color: var(--text);
  font: inherit;
  font-size: 0.85rem;
  cursor: pointer;
}

.search-form button:hover,
.copy-button:hover {
  border-color: var(--accent);
}

.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
  border: 0;
}

.brand {
  color: var(--text);
  font-size: 1.2rem;
  font-weight: 700;
  text-decoration: none;
}

.tagline {
  margin: 0;
  color: var(--muted);
  font-size: 0.9rem;
}

.site-footer {
  margin-top: 3rem;
  padding: 1.5rem;
  border-top: 1px solid var(--border);
  color: var(--muted);
  font-size: 0.9rem;
}

.site-footer ul {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem 1.5rem;
  margin: 0 0 0.75rem;
  padding: 0;
  list-style: none;
}

.site-footer p {
  margin: 0;
}

/*
 * Layout. Narrow screens: one column; the navigation waits above the article, hidden until the
 * header's "Menu" link targets it (:target, no script), and the table of contents is folded at the
 * top of the article. From 50rem: the navigation in a sidebar. From 88rem: the table of contents in
 * a column of its own; below that it stays folded above the article, so that at 1280 px the article
 * column holds a 100-column code block.
 */
.page {
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  grid-template-areas: "nav" "main";
  gap: 1.5rem;
  max-width: 92rem;
  margin: 0 auto;
  padding: 1.25rem 1.5rem;
}

.sidebar {
  grid-area: nav;
}

main {
  grid-area: main;
  min-width: 0;
}

.toc {
  display: none;
  grid-area: toc;
}

.menu-link {
  font-size: 0.9rem;
}

.sidebar .menu-close {
  display: none;
}

@media (max-width: 49.99rem) {
  .sidebar {
    display: none;
  }

  .sidebar:target {
    display: block;
    padding-bottom: 1rem;
    border-bottom: 1px solid var(--border);
  }

  .sidebar:target .menu-close {
    display: inline-block;
    margin-bottom: 0.75rem;
    color: var(--accent);
  }

  article h1 {
    font-size: 1.7rem;
  }

  .sidebar ul {
    columns: 2 10rem;
  }

  .site-header {
    padding: 0.6rem 1rem;
  }

  .page {
    padding: 1rem;
  }

  .search-form {
    order: 5;
    flex-basis: 100%;
    max-width: none;
  }
}

@media (min-width: 50rem) {
  .page {
    grid-template-columns: var(--sidebar) minmax(0, 1fr);
    grid-template-areas: "nav main";
    gap: 2rem;
  }

  .menu-link {
    display: none;
  }

  .sidebar {
    position: sticky;
    top: 1rem;
    align-self: start;
    max-height: calc(100vh - 2rem);
    overflow-y: auto;
  }
}

@media (min-width: 88rem) {
  .page {
    grid-template-columns: var(--sidebar) minmax(0, 1fr) var(--toc);
    grid-template-areas: "nav main toc";
  }

  .toc {
    display: block;
    position: sticky;
    top: 1rem;
    align-self: start;
    max-height: calc(100vh - 2rem);
    overflow-y: auto;
  }

  .toc-inline {
    display: none;
  }
}

/* Navigation */
.nav-section + .nav-section {
  margin-top: 1.25rem;
}

summary.nav-title {
  cursor: pointer;
}

details.nav-section[open] > summary.nav-title {
  margin-bottom: 0.4rem;
}

.nav-title,
.toc-title {
  margin: 0 0 0.4rem;
  color: var(--muted);
  font-size: 0.75rem;
  font-weight: 600;
  letter-spacing: 0.06em;
  text-transform: uppercase;
}

.sidebar ul,
.toc ol,
.toc-inline ol {
  margin: 0;
  padding: 0;
  list-style: none;
}

.sidebar a {
  display: block;
  padding: 0.2rem 0.6rem;
  border-radius: var(--radius);
  color: var(--text);
  font-size: 0.92rem;
  text-decoration: none;
}

.sidebar a:hover {
  background: var(--bg-subtle);
}

.sidebar a[aria-current="page"] {
  background: var(--current-bg);
  color: var(--accent);
  font-weight: 600;
}

.toc-inline {
  max-width: var(--measure);
  margin: 0 0 1.25rem;
  padding: 0.5rem 0.9rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--bg-subtle);
}

.toc-inline summary {
  color: var(--muted);
  font-size: 0.9rem;
  font-weight: 600;
  cursor: pointer;
}

.toc-inline nav {
  margin-top: 0.5rem;
}

.toc-inline a {
  display: block;
  padding: 0.15rem 0;
  font-size: 0.9rem;
  text-decoration: none;
}

.toc-inline ol ol {
  padding-left: 0.9rem;
}

.toc a {
  display: block;
  padding: 0.15rem 0;
  color: var(--muted);
  font-size: 0.85rem;
  text-decoration: none;
}

.toc a:hover {
  color: var(--accent);
}

.toc ol ol {
  padding-left: 0.9rem;
}

/* The article: prose at the reading measure, code blocks and tables across the whole column. */
article {
  max-width: var(--column);
  /* A long identifier or URL breaks at the edge of a phone's screen rather than widening the page. */
  overflow-wrap: break-word;
}

article > :is(p, ul, ol, blockquote, h1, h2, h3, h4, h5, h6, dl, hr),
.page-meta {
  max-width: var(--measure);
}

.page-meta {
  margin: 2rem 0 0;
  color: var(--muted);
  font-size: 0.9rem;
}

article h1,
article h2,
article h3,
article h4 {
  line-height: 1.25;
  scroll-margin-top: 1rem;
}

article h1 {
  margin: 0 0 1rem;
  font-size: 2.1rem;
}

article h2 {
  margin: 2.5rem 0 0.75rem;
  padding-bottom: 0.3rem;
  border-bottom: 1px solid var(--border);
  font-size: 1.5rem;
}

article h3 {
  margin: 2rem 0 0.5rem;
  font-size: 1.2rem;
}

article h4 {
  margin: 1.5rem 0 0.5rem;
  font-size: 1rem;
}

.anchor {
  margin-left: 0.35rem;
  color: var(--muted);
  font-weight: 400;
  text-decoration: none;
  opacity: 0;
}

h1:hover .anchor,
h2:hover .anchor,
h3:hover .anchor,
h4:hover .anchor,
h5:hover .anchor,
h6:hover .anchor,
.anchor:focus {
  opacity: 1;
}

article p,
article ul,
article ol,
article blockquote,
article pre,
.table-scroll {
  margin: 0 0 1rem;
}

article li + li {
  margin-top: 0.25rem;
}

article li.task {
  list-style: none;
}

article blockquote {
  padding: 0.25rem 1rem;
  border-left: 4px solid var(--border);
  color: var(--muted);
}

article hr {
  margin: 2rem 0;
  border: 0;
  border-top: 1px solid var(--border);
}

article img {
  max-width: 100%;
  height: auto;
}

.raw-html {
  color: var(--muted);
  font-family: var(--font-code);
  font-size: 0.85em;
}

/* Code */
code,
pre {
  font-family: var(--font-code);
  font-size: 0.875em;
}

:not(pre) > code {
  padding: 0.1em 0.35em;
  border-radius: 4px;
  background: var(--code-bg);
  overflow-wrap: break-word;
}

/* In a table an identifier stays whole: the table scrolls sideways instead (.table-scroll). */
td code,
th code {
  white-space: nowrap;
  overflow-wrap: normal;
}

.code-block {
  position: relative;
  margin: 0 0 1rem;
}

.code-block pre.code {
  margin: 0;
}

/* Long lines scroll inside their block (deliberately: wrapping code changes what it says). */
pre.code {
  position: relative;
  padding: 1rem 1rem;
  overflow-x: auto;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--code-bg);
  line-height: 1.5;
  tab-size: 2;
}

pre.code[data-lang]::before {
  content: attr(data-lang);
  position: absolute;
  top: 0.3rem;
  right: 0.6rem;
  pointer-events: none;
  color: var(--muted);
  font-family: var(--font-body);
  font-size: 0.7rem;
  text-transform: uppercase;
}

pre.code code {
  font-size: inherit;
}

.copy-button {
  position: absolute;
  top: 0.35rem;
  right: 0.35rem;
  padding: 0.1rem 0.5rem;
  font-size: 0.75rem;
  opacity: 0;
}

.code-block:hover .copy-button,
.copy-button:focus-visible {
  opacity: 1;
}

/* The button takes the corner where the language label sits. */
.code-block:hover pre.code[data-lang]::before {
  opacity: 0;
}

@media (hover: none) {
  .copy-button {
    opacity: 1;
  }

  .code-block:has(.copy-button) pre.code[data-lang]::before {
    display: none;
  }
}

/* Lines a guide points at (\`\`\`ts {3-4}) */
pre.code .line {
  display: inline-block;
  min-width: 100%;
}

pre.code .line.highlighted {
  margin: 0 -1rem;
  padding: 0 1rem;
  min-width: calc(100% + 2rem);
  border-left: 3px solid var(--accent);
  background: var(--current-bg);
}

.tok-keyword { color: var(--tok-keyword); }
.tok-string { color: var(--tok-string); }
.tok-number { color: var(--tok-number); }
.tok-comment { color: var(--tok-comment); font-style: italic; }
.tok-type { color: var(--tok-type); }
.tok-punctuation { color: var(--tok-punctuation); }
.tok-property { color: var(--tok-property); }
.tok-variable { color: var(--tok-variable); }

/* Suggestions under a search box (added by the page script) */
.suggestions {
  position: absolute;
  top: calc(100% + 0.25rem);
  left: 0;
  right: 0;
  z-index: 20;
  max-height: 60vh;
  margin: 0;
  padding: 0.25rem;
  overflow-y: auto;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--bg);
  box-shadow: 0 6px 20px rgb(0 0 0 / 0.15);
  list-style: none;
}

.suggestions a {
  display: block;
  padding: 0.35rem 0.6rem;
  border-radius: var(--radius);
  color: var(--text);
  font-size: 0.92rem;
  text-decoration: none;
  overflow-wrap: anywhere;
}

.suggestions a:hover,
.suggestions [aria-selected="true"] a {
  background: var(--current-bg);
}

.suggestion-context {
  margin-left: 0.5rem;
  color: var(--muted);
  font-size: 0.8rem;
}

/* The search page */
.search-page .search-form {
  max-width: var(--measure);
  margin: 0 0 1rem;
}

.search-results {
  max-width: var(--measure);
  margin: 1.5rem 0 0;
  padding: 0;
  list-style: none;
}

.search-results li + li {
  margin-top: 1.25rem;
}

article .search-results h2 {
  margin: 0;
  padding: 0;
  border: 0;
  font-size: 1.15rem;
}

.search-results p {
  margin: 0.15rem 0 0;
}

.search-url {
  color: var(--muted);
  font-size: 0.85rem;
}

mark {
  padding: 0 0.1em;
  border-radius: 2px;
  background: var(--mark-bg);
  color: inherit;
}

/* Tables */
.table-scroll {
  overflow-x: auto;
}

table {
  border-collapse: collapse;
  font-size: 0.92rem;
}

th,
td {
  padding: 0.45rem 0.75rem;
  border: 1px solid var(--border);
  text-align: left;
  vertical-align: top;
}

th {
  background: var(--bg-subtle);
}

.align-center { text-align: center; }
.align-right { text-align: right; }
.align-left { text-align: left; }

/* Previous and next */
.pager {
  display: flex;
  justify-content: space-between;
  gap: 1rem;
  max-width: var(--measure);
  margin-top: 3rem;
}

.pager a {
  flex: 1 1 0;
  /* Side by side on a phone: a long title ("charter/multipart") breaks instead of widening the page. */
  min-width: 0;
  overflow-wrap: anywhere;
  padding: 0.75rem 1rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  text-decoration: none;
}

.pager a:hover {
  border-color: var(--accent);
}

.pager .pager-next {
  text-align: right;
}

.pager-label {
  display: block;
  color: var(--muted);
  font-size: 0.8rem;
}

.pager-title {
  font-weight: 600;
}

@media print {
  .sidebar,
  .toc,
  .toc-inline,
  .search-form,
  .copy-button,
  .menu-link,
  .pager,
  .skip-link,
  .anchor {
    display: none;
  }

  .page {
    display: block;
  }
}
`;

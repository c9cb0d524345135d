/** The frame of every page: colours and fonts (light and dark), the layout grid, the skip link, header and footer. */
export const PAGE_FRAME_CSS = `/* Charter documentation site */

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

`;

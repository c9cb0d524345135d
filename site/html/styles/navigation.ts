/** The navigation and the article: prose at the reading measure, code blocks and tables across the column. */
export const NAVIGATION_CSS = `/* Navigation */
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

`;

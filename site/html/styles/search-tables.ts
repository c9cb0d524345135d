/** The search box suggestions, the search page, tables, and previous/next links. */
export const SEARCH_AND_TABLES_CSS = `/* Suggestions under a search box (added by the page script) */
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

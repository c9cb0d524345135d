/**
 * The search page for people (`/search?q=`): a form and the ranked results, each with its title,
 * its URL and a snippet whose matched words are marked. Plain HTML in the site's layout: it works
 * without script, under the pages' CSP.
 */
import { escapeHtml } from '../content/escape.ts';
import type { ContentSite } from '../content/types.ts';
import { renderLayout, renderSearchForm, SITE_NAME } from '../html/layout.ts';
import type { SearchResponse } from '../mcp/search.ts';
import { snippetHtml } from './snippet-html.ts';

/** Query words that find pages whatever the content: shown when the box is empty. */
export const SEARCH_EXAMPLES: readonly string[] = ['rate limit', 'jwt verify', 'typed client', 'websocket'];

/** The search page for `query` and what the index found (undefined: no query yet). */
export function renderSearchDocument(
  site: ContentSite,
  query: string,
  found: SearchResponse | undefined,
): string {
  const examples = SEARCH_EXAMPLES.map(
    (words) => `<a href="/search?q=${encodeURIComponent(words)}">${escapeHtml(words)}</a>`,
  ).join(', ');
  let summary: string;
  let results = '';
  if (found === undefined) {
    summary = `<p>Type a few words: a function, an option, an error, a topic. For example ${examples}.</p>`;
  } else if (found.results.length === 0) {
    summary = `<p class="search-summary">No page matches <strong>${escapeHtml(query)}</strong>. Try fewer or other words, for example ${examples}.</p>`;
  } else {
    const count = found.results.length;
    const partial = found.matchedAllTerms ? '' : ' No page has every word; these have some of them.';
    summary = `<p class="search-summary" role="status">${count} ${count === 1 ? 'page' : 'pages'} for <strong>${escapeHtml(query)}</strong>.${partial}</p>`;
    const items = found.results.map(
      (result) => `<li>
<h2><a href="${escapeHtml(result.url)}">${escapeHtml(result.title)}</a></h2>
<p class="search-url">${escapeHtml(result.url)}</p>
<p class="search-snippet">${snippetHtml(result.snippet)}</p>
</li>`,
    );
    results = `<ol class="search-results">
${items.join('\n')}
</ol>
`;
  }
  const main = `<article class="search-page">
<h1>Search</h1>
${renderSearchForm(query, 'search-query')}
${summary}
${results}</article>`;
  const title = query === '' ? `Search · ${SITE_NAME}` : `${query} · Search · ${SITE_NAME}`;
  return renderLayout(site, {
    title,
    description: 'Search the Charter documentation.',
    head: '<meta name="robots" content="noindex">',
    currentPath: undefined,
    main,
    aside: '',
    footerExtra: '',
    query,
  });
}

/**
 * The search index of a site's content, built on first use and kept: the same ranking the tool
 * server's `search_docs` uses (`site/mcp/search.ts`, BM25F over title, headings, description and
 * text), so a person and an agent asking the same words get the same pages in the same order.
 */
import type { ContentSite } from '../content/types.ts';
import { createSearchIndex, type SearchIndex } from '../mcp/search.ts';

/**
 * The weight of a page of the generated API reference: its declarations name every identifier, so
 * without it a topic ("websocket") found an adapter's declarations before its guide.
 */
export const REFERENCE_PAGE_WEIGHT = 0.5;

const built = new WeakMap<ContentSite, SearchIndex>();

/** The index of `content`, built the first time it is asked for (a few milliseconds). */
export function searchIndexOf(content: ContentSite): SearchIndex {
  let index = built.get(content);
  if (index === undefined) {
    index = createSearchIndex(content.pages, {
      pageWeight: (page) => (page.section === 'reference' ? REFERENCE_PAGE_WEIGHT : 1),
    });
    built.set(content, index);
  }
  return index;
}

/**
 * `GET /search/suggestions.json`: what the page script suggests as a reader types in the search
 * box. Every page title, every h2/h3 of the guides and error pages, and every export of the API
 * reference, each with its URL: one small document, fetched once by a page that is being typed
 * into, cached by the browser and revalidated by ETag. It is a resource of the pages, like their
 * assets: left out of the OpenAPI document and of the quota. The search itself (`/search`) stays
 * the way to search; suggestions only jump to a page or a section.
 */
import type { AnyRouteDefinition } from '@charter/core';
import type { ContentSite } from '../content/types.ts';
import { answer, PAGE_CACHE_CONTROL, type Representation, representation } from '../pages/representation.ts';
import { textHeader } from '../api/header-specs.ts';

/** Where the suggestions live (the page script reads the form's `data-suggestions`). */
export const SUGGESTIONS_PATH = '/search/suggestions.json';

/** One suggestion: `[text, url, context]` (arrays keep the document small). */
export type Suggestion = readonly [text: string, url: string, context: string];

/** Every suggestion: page titles, then the guides' sections, then the reference's exports. */
export function buildSuggestions(content: ContentSite): Suggestion[] {
  const titles: Suggestion[] = content.pages.map((page) => [
    page.title,
    page.url,
    content.sections.find((section) => section.id === page.section)?.title ?? '',
  ]);
  const sections: Suggestion[] = [];
  const exports: Suggestion[] = [];
  for (const page of content.pages) {
    for (const heading of page.headings) {
      const entry: Suggestion = [heading.text, `${page.url}#${heading.id}`, page.title];
      if (page.section === 'reference') {
        // Its h2s are kinds ("Functions"); its h3s are the exports.
        if (heading.depth === 3) exports.push(entry);
      } else sections.push(entry);
    }
  }
  return [...titles, ...sections, ...exports];
}

const built = new WeakMap<ContentSite, Representation>();

function suggestionsRepresentation(content: ContentSite): Representation {
  let rep = built.get(content);
  if (rep === undefined) {
    rep = representation(JSON.stringify(buildSuggestions(content)), {
      'content-type': 'application/json',
      'cache-control': PAGE_CACHE_CONTROL,
    });
    built.set(content, rep);
  }
  return rep;
}

/** The `GET /search/suggestions.json` route over `content` (rendered on first use). */
export function suggestionsRoute(options: { readonly content: ContentSite }): AnyRouteDefinition {
  const { content } = options;
  return {
    method: 'GET',
    path: SUGGESTIONS_PATH,
    operationId: 'getSearchSuggestions',
    summary: 'Page titles, sections and exports the search box suggests as you type',
    tags: ['pages'],
    responses: {
      200: {
        description: 'A JSON array of [text, url, context] triples',
        contentType: 'application/json',
        headers: {
          ETag: textHeader('Strong entity tag of the body'),
          'Cache-Control': textHeader(`Always \`${PAGE_CACHE_CONTROL}\``),
        },
      },
      304: { description: 'Not modified: If-None-Match matched the current ETag' },
    },
    openapi: { exclude: true },
    handler: (ctx) => answer(ctx, suggestionsRepresentation(content)),
  };
}

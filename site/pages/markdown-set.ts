/**
 * Every page's Markdown representation, rendered on first use per content and origin and shared by
 * the Markdown surfaces (`/md/{path}`, `{url}.md`, `Accept: text/markdown` on `{url}`, `/docs-md`).
 */
import type { ContentSite, Page } from '../content/types.ts';
import { markdownNotFound, type NotFoundRequest } from './not-found.ts';
import { absoluteUrl } from './options.ts';
import {
  MARKDOWN_TYPE,
  NOT_FOUND_CACHE_CONTROL,
  PAGE_CACHE_CONTROL,
  type PageResult,
  type Representation,
  representation,
} from './representation.ts';

/** `Link` value naming a page's canonical (HTML) URL (RFC 6596, RFC 8288 §3). */
export function canonicalLink(origin: string, page: Page): string {
  return `<${absoluteUrl(origin, page.url)}>; rel="canonical"`;
}

/** The headers of a page's Markdown representation; `link` lists extra link-values after the canonical one. */
export function markdownHeaders(
  origin: string,
  page: Page,
  extra: Record<string, string> = {},
): Record<string, string> {
  const { link, ...rest } = extra;
  return {
    'content-type': MARKDOWN_TYPE,
    // Rule 3: the canonical URL answers HTML or Markdown by Accept, so every Markdown answer says
    // so (RFC 9110 §12.5.5), and caches never hand one to a client that asked for the other.
    vary: 'Accept',
    'cache-control': PAGE_CACHE_CONTROL,
    link: link === undefined ? canonicalLink(origin, page) : `${canonicalLink(origin, page)}, ${link}`,
    ...rest,
  };
}

/** Each page's Markdown representation by page path, made the first time it is asked for. */
export interface MarkdownRepresentations {
  /** The representation of the page at `path` (`docs/jwt`), or undefined when there is none. */
  get(path: string): Representation | undefined;
}

const cache = new WeakMap<ContentSite, Map<string, MarkdownRepresentations>>();

/**
 * Each page's Markdown representation by page path, rendered on first use and then shared by every
 * surface for this content and origin. Only pages are remembered, never the paths asked for in vain.
 */
export function markdownRepresentations(content: ContentSite, origin: string): MarkdownRepresentations {
  let byOrigin = cache.get(content);
  if (byOrigin === undefined) {
    byOrigin = new Map();
    cache.set(content, byOrigin);
  }
  let reps = byOrigin.get(origin);
  if (reps === undefined) {
    const made = new Map<string, Representation>();
    reps = Object.freeze({
      get(path: string): Representation | undefined {
        let rep = made.get(path);
        if (rep === undefined) {
          const page = content.byPath(path);
          if (page === undefined) return undefined;
          rep = representation(page.markdown, markdownHeaders(origin, page));
          made.set(path, rep);
        }
        return rep;
      },
    });
    byOrigin.set(origin, reps);
  }
  return reps;
}

/** A 404 with the Markdown not-found body (site.md Errors rule 3); `extra` adds headers (docs-md). */
export function markdownNotFoundResult(
  content: ContentSite,
  origin: string,
  request: NotFoundRequest,
  extra: [string, string][] = [],
): PageResult {
  return {
    status: 404,
    body: markdownNotFound(content, origin, request),
    headers: [
      ['content-type', MARKDOWN_TYPE],
      ['vary', 'Accept'],
      ['cache-control', NOT_FOUND_CACHE_CONTROL],
      ...extra,
    ],
  };
}

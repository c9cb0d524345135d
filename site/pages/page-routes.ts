/**
 * The HTML pages at their canonical URLs (`/`, `/docs`, `/docs/*path`, `/errors/*path`...), each
 * also answering Markdown at its URL plus `.md` and under `Accept: text/markdown` (site.md rule 3).
 * Each document is rendered the first time it is asked for and kept; later requests are a lookup.
 */
import type { AnyRouteDefinition } from '@charter/core';
import type { ContentSite, Page } from '../content/types.ts';
import { fillDocumentTemplate } from '../html/document-template.ts';
import { PAGE_CSP, renderNotFoundDocument, renderPageDocument } from '../html/index.ts';
import { markdownNotFoundResult, markdownRepresentations } from './markdown-set.ts';
import { type Negotiated, negotiatePage } from './negotiate.ts';
import { absoluteUrl, type PagesOptions, resolvePagesOptions } from './options.ts';
import {
  answer,
  HTML_TYPE,
  NOT_FOUND_CACHE_CONTROL,
  PAGE_CACHE_CONTROL,
  type PageResult,
  type Representation,
  representation,
  requestHeader,
  type RequestHeaders,
} from './representation.ts';
import {
  htmlNotFound,
  htmlNotModified,
  htmlOk,
  markdownNotFoundSpec,
  markdownOk,
  notModified,
} from './route-specs.ts';

/** Sections whose wildcard route is registered even before the content has a page in them. */
export const PAGE_SECTIONS: readonly string[] = ['docs', 'errors'];

function htmlRepresentation(content: ContentSite, page: Page, origin: string): Representation {
  // The executable's document rendered when it was compiled, if it has one (the same bytes).
  const template = content.documentTemplate?.(page.path);
  const prerendered = template === undefined ? undefined : fillDocumentTemplate(template, origin);
  return representation(prerendered ?? renderPageDocument(content, page, { origin }), {
    'content-type': HTML_TYPE,
    'content-security-policy': PAGE_CSP,
    vary: 'Accept',
    'cache-control': PAGE_CACHE_CONTROL,
    link: `<${absoluteUrl(origin, page.markdownUrl)}>; rel="alternate"; type="text/markdown"`,
  });
}

/**
 * `docs/jwt` to `DocsJwt`, for operationIds: each run of letters and digits with its first character
 * upper-cased. A loop rather than a pattern split: the first use of a pattern compiles it, and this
 * runs at start-up for the top-level pages (issue 18, item 6).
 */
function pascal(path: string): string {
  let name = '';
  let wordStart = true;
  for (const char of path) {
    const alphanumeric =
      (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9');
    if (!alphanumeric) {
      wordStart = true;
      continue;
    }
    name += wordStart ? char.toUpperCase() : char;
    wordStart = false;
  }
  return name;
}

/**
 * The sections that get a wildcard route (`PAGE_SECTIONS` and every section the content has a page
 * in), in the order their routes are listed.
 */
function pageSections(content: ContentSite): Set<string> {
  const sections = new Set(PAGE_SECTIONS);
  for (const page of content.pages) {
    const slash = page.path.indexOf('/');
    if (slash > 0) sections.add(page.path.slice(0, slash));
  }
  return sections;
}

/**
 * The paths of `htmlPageRoutes`' routes, in its order, without building them: `createSite` registers
 * the home page's route at start-up and builds the others with the first request that needs them
 * (issue 18, item 6); it checks that the routes it builds are at these paths.
 */
export function htmlPageRoutePaths(content: ContentSite): string[] {
  const paths: string[] = [];
  for (const page of content.pages) if (!page.path.includes('/')) paths.push(page.url, page.markdownUrl);
  for (const section of pageSections(content)) paths.push(`/${section}/*path`);
  return paths;
}

/**
 * The routes of `pageRoutes`, assets aside; with `only`, just the routes whose path it holds (in the
 * same order), the others not even built.
 */
export function htmlPageRoutes(options: PagesOptions, only?: ReadonlySet<string>): AnyRouteDefinition[] {
  const { content, origin } = resolvePagesOptions(options, 'pageRoutes');
  const wanted = (path: string): boolean => only === undefined || only.has(path);
  const markdown = markdownRepresentations(content, origin);
  // Each page's HTML representation, rendered the first time it is asked for. Nothing is made per
  // page before that: the pages are the content's (`byPath`), so the compiled site's start-up
  // allocates nothing here for its 85 pages (issue 18, item 6).
  const htmlMade = new Map<string, Representation>();
  const htmlOf = (page: Page): Representation => {
    let rep = htmlMade.get(page.path);
    if (rep === undefined) {
      rep = htmlRepresentation(content, page, origin);
      htmlMade.set(page.path, rep);
    }
    return rep;
  };
  const markdownOf = (page: Page): Representation => markdown.get(page.path)!;

  const negotiated = (ctx: RequestHeaders, page: Page, choice: Negotiated): PageResult =>
    answer(ctx, choice.type === 'text/markdown' ? markdownOf(page) : htmlOf(page));

  // An unknown page: the HTML not-found page for a client that takes HTML, else the Markdown one
  // (a client that accepts neither is more likely a program than a browser).
  const notFound = (choice: Negotiated, requested: string, pagePath: string): PageResult => {
    if (choice.type === 'text/markdown' || !choice.acceptable) {
      return markdownNotFoundResult(content, origin, { requested, pagePath });
    }
    return {
      status: 404,
      body: renderNotFoundDocument(content, { origin, path: requested }),
      headers: [
        ['content-type', HTML_TYPE],
        ['content-security-policy', PAGE_CSP],
        ['vary', 'Accept'],
        ['cache-control', NOT_FOUND_CACHE_CONTROL],
      ],
    };
  };

  const htmlResponses = {
    200: htmlOk('The page'),
    304: htmlNotModified(),
    404: htmlNotFound(),
  };
  const markdownResponses = {
    200: markdownOk('The page as Markdown'),
    304: notModified(),
    404: markdownNotFoundSpec(),
  };
  const routes: AnyRouteDefinition[] = [];

  // Top-level pages and section roots have a fixed URL each: `/`, `/docs`, and `/index.md`, `/docs.md`.
  for (const page of content.pages) {
    if (page.path.includes('/')) continue;
    const name = pascal(page.path);
    if (wanted(page.url)) {
      routes.push({
        method: 'GET',
        path: page.url,
        operationId: `get${name}Page`,
        summary: `${page.title} (HTML, or Markdown by Accept)`,
        tags: ['pages'],
        responses: htmlResponses,
        openapi: { exclude: true },
        handler: (ctx) => negotiated(ctx, page, negotiatePage(requestHeader(ctx, 'accept'))),
      });
    }
    if (wanted(page.markdownUrl)) {
      routes.push({
        method: 'GET',
        path: page.markdownUrl,
        operationId: `get${name}PageMarkdown`,
        summary: `${page.title} as Markdown`,
        tags: ['markdown'],
        responses: markdownResponses,
        openapi: { exclude: true },
        handler: (ctx) => answer(ctx, markdownOf(page)),
      });
    }
  }

  // Pages inside a section share one wildcard route: `/docs/jwt` and `/docs/jwt.md`. The wildcard
  // value is only a key of the content's pages (`byPath`), never a file name, so `..` and friends
  // lead nowhere.
  for (const section of pageSections(content)) {
    if (!wanted(`/${section}/*path`)) continue;
    routes.push({
      method: 'GET',
      path: `/${section}/*path`,
      operationId: `get${pascal(section)}SectionPage`,
      summary: `A page of the ${section} section (HTML, or Markdown by Accept or with .md)`,
      tags: ['pages', 'markdown'],
      responses: htmlResponses,
      openapi: { exclude: true },
      handler: (ctx) => {
        const rest = ctx.params.path as string;
        const requested = `/${section}/${rest}`;
        if (rest.endsWith('.md')) {
          const pagePath = `${section}/${rest.slice(0, -'.md'.length)}`;
          const page = content.byPath(pagePath);
          if (page !== undefined) return answer(ctx, markdownOf(page));
          return markdownNotFoundResult(content, origin, { requested, pagePath });
        }
        const pagePath = `${section}/${rest}`;
        const choice = negotiatePage(requestHeader(ctx, 'accept'));
        const page = content.byPath(pagePath);
        return page === undefined ? notFound(choice, requested, pagePath) : negotiated(ctx, page, choice);
      },
    });
  }
  return routes;
}

/** `GET /md/{path}` (and the bare `/md`, the home page): every page's Markdown by page path (rule 3). */
import type { AnyRouteDefinition } from '@charter/core';
import { markdownNotFoundResult, markdownRepresentations } from './markdown-set.ts';
import { type PagesOptions, resolvePagesOptions } from './options.ts';
import { answer, type PageResult, type RequestHeaders } from './representation.ts';
import { markdownNotFoundSpec, markdownOk, notModified } from './route-specs.ts';

/** The page path the bare `/md` serves: the home page, as `/md/` + nothing would name. */
export const HOME_PAGE_PATH = 'index';

/** The paths of `mdRoutes`' routes, in its order: the index and one page's Markdown. */
export const MD_PATHS = ['/md', '/md/*path'] as const;

/** `GET /md` and `GET /md/*path`, answering from each page's Markdown, rendered on first use. */
export function mdRoutes(options: PagesOptions): AnyRouteDefinition[] {
  const { content, origin } = resolvePagesOptions(options, 'mdRoutes');
  const reps = markdownRepresentations(content, origin);
  // The wildcard value is only ever a key of this map: no file is opened, so `..` cannot escape.
  const serve = (ctx: RequestHeaders, path: string, requested: string): PageResult => {
    const rep = reps.get(path);
    if (rep !== undefined) return answer(ctx, rep);
    return markdownNotFoundResult(content, origin, { requested, pagePath: path });
  };
  const responses = {
    200: markdownOk('The page as Markdown (its front matter removed; the title is its first heading)'),
    304: notModified(),
    404: markdownNotFoundSpec(),
  };
  return [
    {
      method: 'GET',
      path: MD_PATHS[0],
      operationId: 'getHomeMarkdown',
      summary: 'The home page as Markdown (same as /md/index)',
      tags: ['markdown'],
      responses,
      handler: (ctx) => serve(ctx, HOME_PAGE_PATH, '/md'),
    },
    {
      method: 'GET',
      path: MD_PATHS[1],
      operationId: 'getPageMarkdown',
      summary: 'A page as Markdown, by page path (index, docs, docs/jwt, errors/not-found)',
      description:
        'The Markdown of the page at {path}: the page path without a leading slash, as listed in ' +
        '/llms.txt. The same bytes are served at the page URL plus .md and at the page URL with ' +
        'Accept: text/markdown.',
      tags: ['markdown'],
      responses,
      handler: (ctx) => {
        const path = ctx.params.path as string;
        return serve(ctx, path, `/md/${path}`);
      },
    },
  ];
}

/**
 * `/docs-md/{path}`, the legacy Markdown surface (site.md Endpoints rule 4, Versioning 7): it serves
 * what `/md/docs/{path}` serves and marks every answer deprecated (RFC 9745) with links to its
 * policy and its successor (RFC 8288, RFC 5829). No `Sunset` (RFC 8594): none is scheduled.
 */
import type { AnyRouteDefinition, ResponseHeaderSpec } from '@charter/core';
import { textHeader } from '../api/header-specs.ts';
import type { ContentSite, Page } from '../content/types.ts';
import { markdownHeaders, markdownNotFoundResult } from './markdown-set.ts';
import { absoluteUrl, type PagesOptions, resolvePagesOptions } from './options.ts';
import {
  answer,
  type PageResult,
  type Representation,
  representation,
  type RequestHeaders,
} from './representation.ts';
import { markdownNotFoundSpec, markdownOk, notModified } from './route-specs.ts';

/** The day `/docs-md` was deprecated (UTC midnight); the API index publishes it as `deprecatedAt`. */
export const DOCS_MD_DEPRECATED_AT = '2026-06-01';

/** The policy page the `deprecation` link points at (RFC 9745 §3). */
export const DEPRECATION_POLICY_PATH = '/docs/versioning';

/**
 * The `Deprecation` field value: an RFC 9651 §3.3.7 Date, `@` and the Unix seconds of
 * `DOCS_MD_DEPRECATED_AT` (RFC 9745 §2.1).
 */
export const DOCS_MD_DEPRECATION = `@${Date.parse(`${DOCS_MD_DEPRECATED_AT}T00:00:00Z`) / 1000}`;

/** The `/md` path that succeeds `/docs-md/{path}` (`''` for the bare `/docs-md`). */
export function successorPath(path: string): string {
  return path === '' ? '/md/docs' : `/md/docs/${path}`;
}

/**
 * The deprecation headers of one `/docs-md` answer: `Deprecation`, and `Link` values for the
 * policy (`deprecation`, RFC 9745 §3) and for the same page on `/md` (`successor-version` and
 * `latest-version`, RFC 5829 §3: `/md` is both the next and the current surface).
 */
export function deprecationHeaders(origin: string, path: string): { deprecation: string; link: string } {
  const successor = absoluteUrl(origin, successorPath(path));
  return {
    deprecation: DOCS_MD_DEPRECATION,
    link:
      `<${absoluteUrl(origin, DEPRECATION_POLICY_PATH)}>; rel="deprecation"; type="text/html", ` +
      `<${successor}>; rel="successor-version", <${successor}>; rel="latest-version"`,
  };
}

/**
 * The representations of the docs pages as `/docs-md` serves them, by `/docs-md` path (`''` for the
 * docs section page, `jwt` for `docs/jwt`), each rendered the first time it is asked for.
 */
function docsMdRepresentations(
  content: ContentSite,
  origin: string,
): { get(path: string): Representation | undefined } {
  const pages = new Map<string, Page>();
  for (const page of content.pages) {
    if (page.path === 'docs') pages.set('', page);
    else if (page.path.startsWith('docs/')) pages.set(page.path.slice('docs/'.length), page);
  }
  const made = new Map<string, Representation>();
  return {
    get(path) {
      let rep = made.get(path);
      if (rep === undefined) {
        const page = pages.get(path);
        if (page === undefined) return undefined;
        const extra = deprecationHeaders(origin, path);
        rep = representation(page.markdown, markdownHeaders(origin, page, extra));
        made.set(path, rep);
      }
      return rep;
    },
  };
}

const DEPRECATION_HEADERS: Record<string, ResponseHeaderSpec> = {
  Deprecation: textHeader(
    `Always \`${DOCS_MD_DEPRECATION}\` (RFC 9745): deprecated since ${DOCS_MD_DEPRECATED_AT}`,
  ),
  Link: textHeader(
    'The canonical page (rel="canonical"), the versioning policy (rel="deprecation") and the same page ' +
      'under /md/docs (rel="successor-version" and rel="latest-version")',
  ),
};

/** The paths of `docsMdRoutes`' routes, in its order (the deprecated Markdown URLs). */
export const DOCS_MD_PATHS = ['/docs-md', '/docs-md/*path'] as const;

/** `GET /docs-md` and `GET /docs-md/{path}`: deprecated, the same bodies as `/md/docs...`. */
export function docsMdRoutes(options: PagesOptions): AnyRouteDefinition[] {
  const { content, origin } = resolvePagesOptions(options, 'docsMdRoutes');
  const reps = docsMdRepresentations(content, origin);
  const serve = (ctx: RequestHeaders, path: string): PageResult => {
    const rep = reps.get(path);
    if (rep !== undefined) return answer(ctx, rep);
    const { deprecation, link } = deprecationHeaders(origin, path);
    return markdownNotFoundResult(
      content,
      origin,
      {
        requested: path === '' ? '/docs-md' : `/docs-md/${path}`,
        pagePath: path === '' ? 'docs' : `docs/${path}`,
      },
      [
        ['deprecation', deprecation],
        ['link', link],
      ],
    );
  };
  const responses = {
    200: markdownOk('The page as Markdown, exactly as /md/docs/{path} serves it', DEPRECATION_HEADERS),
    304: notModified(DEPRECATION_HEADERS),
    404: markdownNotFoundSpec(DEPRECATION_HEADERS),
  };
  const shared = {
    method: 'GET' as const,
    tags: ['markdown'],
    deprecated: true,
    description:
      `Deprecated since ${DOCS_MD_DEPRECATED_AT} in favour of /md/docs/{path}; no sunset is scheduled ` +
      '(one will be announced at least 180 days ahead with a Sunset header).',
    responses,
  };
  return [
    {
      ...shared,
      path: DOCS_MD_PATHS[0],
      operationId: 'getLegacyDocsIndexMarkdown',
      summary: 'The docs section page as Markdown (deprecated; use /md/docs)',
      handler: (ctx) => serve(ctx, ''),
    },
    {
      ...shared,
      path: DOCS_MD_PATHS[1],
      operationId: 'getLegacyDocsMarkdown',
      summary: 'A docs page as Markdown (deprecated; use /md/docs/{path})',
      handler: (ctx) => serve(ctx, ctx.params.path as string),
    },
  ];
}

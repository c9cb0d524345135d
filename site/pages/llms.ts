/**
 * `/llms.txt` (the llms.txt proposal, https://llmstxt.org/): a Markdown index for agents, built from
 * the content so a new page appears without editing code. Served as `text/plain; charset=utf-8`.
 */
import type { AnyRouteDefinition } from '@charter/core';
import { textHeader } from '../api/header-specs.ts';
import type { ContentSite, NavSection } from '../content/types.ts';
import { DOCS_MD_DEPRECATED_AT } from './docs-md.ts';
import { linkLine } from './not-found.ts';
import { absoluteUrl, type PagesOptions, resolvePagesOptions } from './options.ts';
import {
  answer,
  PAGE_CACHE_CONTROL,
  type Representation,
  representation,
  TEXT_TYPE,
} from './representation.ts';

const SUMMARY =
  'Charter is a contract-first TypeScript web framework for web-standard Request to Response servers: ' +
  'each route declares its schemas and responses once, and validation, the OpenAPI document, the typed ' +
  'client and the tool server all come from that contract.';

const ABOUT =
  'Every link below is the Markdown form of a page. Any page is also served as Markdown under ' +
  '`/md/<path>`, at its URL plus `.md`, or at its URL with `Accept: text/markdown`. Error `type` URIs ' +
  '(`https://charter.dev/errors/<code>`) each have a page in the Errors section.';

/** The heading a navigation section gets in the index; top-level pages join the guides. */
function headingOf(section: NavSection): string {
  return section.id === '' ? 'Guides' : section.title;
}

/** The `/llms.txt` document for some content, with absolute URLs on `origin`. */
export function buildLlmsTxt(content: ContentSite, origin: string): string {
  const groups = new Map<string, string[]>();
  for (const section of content.sections) {
    if (section.pages.length === 0) continue;
    const heading = headingOf(section);
    let lines = groups.get(heading);
    if (lines === undefined) {
      lines = [];
      groups.set(heading, lines);
    }
    for (const page of section.pages) {
      lines.push(linkLine(page.title, absoluteUrl(origin, page.markdownUrl), page.description));
    }
  }
  const out = ['# Charter', '', `> ${SUMMARY}`, '', ABOUT];
  for (const [heading, lines] of groups) out.push('', `## ${heading}`, '', ...lines);
  out.push(
    '',
    '## APIs',
    '',
    linkLine(
      'API index',
      `${origin}/api/v1`,
      'the machine endpoints of this site and its versioning policy (JSON)',
    ),
    linkLine('OpenAPI document', `${origin}/openapi.json`, "the OpenAPI 3.1 description of this site's APIs"),
    linkLine(
      'API catalog',
      `${origin}/.well-known/api-catalog`,
      'RFC 9727 linkset pointing at the OpenAPI document and the tool server',
    ),
    linkLine(
      'Documentation tool server',
      `${origin}/.well-known/mcp/server-card.json`,
      `server card of the MCP server at ${origin}/mcp (tools search_docs, get_doc, list_docs; no token needed)`,
    ),
    '',
    '## Optional',
    '',
    linkLine(
      'Legacy Markdown surface',
      `${origin}/docs-md`,
      `/docs-md/<path> is deprecated since ${DOCS_MD_DEPRECATED_AT} in favour of /md/docs/<path>; no sunset is scheduled yet`,
    ),
    '',
  );
  return out.join('\n');
}

/** The path of `llmsRoute`. */
export const LLMS_PATH = '/llms.txt';

/** `GET /llms.txt`, rendered once, on first use. */
export function llmsRoute(options: PagesOptions): AnyRouteDefinition {
  const { content, origin } = resolvePagesOptions(options, 'llmsRoute');
  let rep: Representation | undefined;
  const rendered = (): Representation => {
    rep ??= representation(buildLlmsTxt(content, origin), {
      'content-type': TEXT_TYPE,
      'cache-control': PAGE_CACHE_CONTROL,
    });
    return rep;
  };
  return {
    method: 'GET',
    path: LLMS_PATH,
    operationId: 'getLlmsTxt',
    summary: 'Markdown index of the documentation for agents (llms.txt)',
    description:
      'The llms.txt index: a summary, then one link per page (its Markdown URL and description), ' +
      'the APIs, and optional material.',
    tags: ['markdown'],
    responses: {
      200: {
        description: 'The index, Markdown text served as text/plain',
        contentType: 'text/plain',
        headers: {
          ETag: textHeader('Strong entity tag of the body'),
          'Cache-Control': textHeader(PAGE_CACHE_CONTROL),
        },
      },
      304: {
        description: 'Not modified: If-None-Match matched the ETag',
        headers: { ETag: textHeader('The current entity tag') },
      },
    },
    // No 404: the index is always there.
    handler: (ctx) => answer(ctx, rendered()),
  };
}

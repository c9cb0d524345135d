/** The response declarations the page and Markdown routes share (statuses, media types, headers). */
import type { ResponseHeaderSpec, ResponseSpec } from '@charter/core';
import { textHeader } from '../api/header-specs.ts';
import { ASSET_CACHE_CONTROL, NOT_FOUND_CACHE_CONTROL, PAGE_CACHE_CONTROL } from './representation.ts';

// Every field here is text: `type('string')`, made when the OpenAPI document first reads it.
const header = textHeader;

const ETAG = header('Strong entity tag of the body (RFC 9110 §8.8.3); send it back in If-None-Match');
const PAGE_CACHE = header(`Always \`${PAGE_CACHE_CONTROL}\``);
const NOT_FOUND_CACHE = header(`Always \`${NOT_FOUND_CACHE_CONTROL}\``);
const VARY = header('Always `Accept`: the canonical URL serves HTML or Markdown by content negotiation');
const CANONICAL = header('`<canonical page URL>; rel="canonical"` (RFC 6596)');
const LINK = header('The same Link field as the 200 answer');
const CSP = header('The Content-Security-Policy of the site pages');

/** 200 of a Markdown surface. */
export function markdownOk(
  description: string,
  extra: Record<string, ResponseHeaderSpec> = {},
): ResponseSpec {
  return {
    description,
    contentType: 'text/markdown',
    headers: { ETag: ETAG, 'Cache-Control': PAGE_CACHE, Vary: VARY, Link: CANONICAL, ...extra },
  };
}

/** 304 of a page or Markdown surface: the 200's headers without its content. */
export function notModified(extra: Record<string, ResponseHeaderSpec> = {}): ResponseSpec {
  return {
    description: 'Not modified: If-None-Match matched the current ETag (RFC 9110 §15.4.5); no content',
    headers: { ETag: ETAG, 'Cache-Control': PAGE_CACHE, Vary: VARY, Link: LINK, ...extra },
  };
}

/** 404 of a Markdown surface: a Markdown body (not a problem document, site.md Errors rule 3). */
export function markdownNotFoundSpec(extra: Record<string, ResponseHeaderSpec> = {}): ResponseSpec {
  return {
    description:
      'No page at this path: a short Markdown document naming the path and linking /llms.txt, ' +
      '/md/index, /api/v1 and the closest pages',
    contentType: 'text/markdown',
    headers: { 'Cache-Control': NOT_FOUND_CACHE, Vary: VARY, ...extra },
  };
}

/** 200 of an HTML page route (which answers Markdown instead when negotiation picks it). */
export function htmlOk(description: string): ResponseSpec {
  return {
    description: `${description}; Markdown instead when Accept prefers text/markdown, or at the .md URL`,
    contentType: 'text/html',
    headers: {
      ETag: ETAG,
      'Cache-Control': PAGE_CACHE,
      Vary: VARY,
      Link: header(
        'HTML: `<Markdown URL>; rel="alternate"; type="text/markdown"`; Markdown: the canonical URL',
      ),
      'Content-Security-Policy': CSP,
    },
  };
}

/** 304 of an HTML page route. */
export function htmlNotModified(): ResponseSpec {
  return notModified({ 'Content-Security-Policy': CSP });
}

/** 404 of an HTML page route: the not-found page, or the Markdown not-found answer. */
export function htmlNotFound(): ResponseSpec {
  return {
    description:
      'No page at this path: the HTML not-found page, or the Markdown not-found answer for a .md URL ' +
      'or a client that does not accept HTML',
    contentType: 'text/html',
    headers: { 'Cache-Control': NOT_FOUND_CACHE, Vary: VARY, 'Content-Security-Policy': CSP },
  };
}

const ASSET_CACHE = header(`Always \`${ASSET_CACHE_CONTROL}\``);

/** 200 of an asset. */
export function assetOk(): ResponseSpec {
  return {
    description: 'The asset (content-hashed name); its media type depends on the file',
    contentType: 'application/octet-stream',
    headers: { ETag: ETAG, 'Cache-Control': ASSET_CACHE },
  };
}

/** 304 of an asset. */
export function assetNotModified(): ResponseSpec {
  return {
    description: 'Not modified: If-None-Match matched the current ETag; no content',
    headers: { ETag: ETAG, 'Cache-Control': ASSET_CACHE },
  };
}
